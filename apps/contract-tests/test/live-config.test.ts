// Live configuration: missing settings are named, the config file is validated, env wins.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadLiveConfig, liveTarget } from '../src/targets/live.js';
import { HELP, parseCommandLine } from '../src/cli-args.js';
import { isContractTestsError } from '../src/errors.js';

const full = {
  FORMS_API_BASE_URL: 'https://forms.example',
  FORMS_API_TOKEN: 't0ken-value',
  FORMS_API_WORKSPACE_ID: '1',
  FORMS_API_FORM_ID: '42',
};

describe('live config', () => {
  it('names every missing variable', () => {
    const result = loadLiveConfig({ env: { FORMS_API_TOKEN: 'x' }, write: false });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(isContractTestsError(result.error)).toBe(true);
    expect(result.error.kind).toBe('live_config');
    expect(result.error.context.missing).toEqual(['FORMS_API_BASE_URL', 'FORMS_API_WORKSPACE_ID', 'FORMS_API_FORM_ID']);
    expect(result.error.message).toContain('FORMS_API_BASE_URL');
  });

  it('needs FORMS_API_SUBMISSION_ID for --write only', () => {
    expect(loadLiveConfig({ env: full, write: false }).ok).toBe(true);
    const result = loadLiveConfig({ env: full, write: true });
    expect(!result.ok && result.error.context.missing).toEqual(['FORMS_API_SUBMISSION_ID']);
  });

  it('reads a config file, rejects unknown keys and bad ids, lets the environment win', () => {
    const dir = mkdtempSync(join(tmpdir(), 'contract-config-'));
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify({ baseUrl: 'https://file.example', workspaceId: 3, formId: 4 }));
    const fromFile = loadLiveConfig({
      env: { FORMS_API_TOKEN: 'x', FORMS_API_FORM_ID: '9' },
      configPath: good,
      write: false,
    });
    expect(fromFile.ok && fromFile.value).toMatchObject({
      baseUrl: 'https://file.example',
      workspaceId: '3',
      formId: '9',
    });
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ baseUrl: 'https://file.example', formid: 4 }));
    const unknown = loadLiveConfig({ env: {}, configPath: bad, write: false });
    expect(!unknown.ok && unknown.error.message).toContain('unknown key "formid"');
    const badId = loadLiveConfig({ env: { ...full, FORMS_API_FORM_ID: 'abc' }, write: false });
    expect(!badId.ok && badId.error.message).toContain('FORMS_API_FORM_ID must be a positive integer id');
  });

  it('builds a read-only target whose secrets map to variable names', () => {
    const result = loadLiveConfig({
      env: { ...full, FORMS_API_TOKEN_WITHOUT_FORMS_READ: 'other-token' },
      write: false,
    });
    if (!result.ok) throw new Error(result.error.message);
    const target = liveTarget(result.value, { write: false, proxyPass: true });
    expect(target.write).toBe(false);
    expect(target.ids).toMatchObject({ workspaceId: 1, formId: 42 });
    expect(target.secrets.get('t0ken-value')).toBe('$FORMS_API_TOKEN');
    expect(target.secrets.get('other-token')).toBe('$FORMS_API_TOKEN_WITHOUT_FORMS_READ');
  });
});

describe('command line', () => {
  it('defaults to prism and both sandboxes; --target live runs the tenant alone; the env lists targets', () => {
    expect(parseCommandLine([], {})).toMatchObject({
      ok: true,
      value: { targets: ['prism', 'sandbox', 'sandbox-observed'] },
    });
    expect(parseCommandLine(['--target', 'live'], {})).toMatchObject({
      ok: true,
      value: { targets: ['live'] },
    });
    expect(parseCommandLine(['--target', 'sandbox-observed'], {})).toMatchObject({
      ok: true,
      value: { targets: ['sandbox-observed'] },
    });
    expect(parseCommandLine(['--target', 'prism'], {})).toMatchObject({ ok: true, value: { targets: ['prism'] } });
    expect(parseCommandLine([], { FORMS_CONTRACT_TARGETS: 'prism,live' })).toMatchObject({
      ok: true,
      value: { targets: ['prism', 'live'] },
    });
    expect(parseCommandLine(['--target', 'staging'], {})).toMatchObject({ ok: false, error: { kind: 'usage' } });
    expect(parseCommandLine(['--operation', 'listForms'], {})).toMatchObject({
      ok: false,
      error: { kind: 'usage', message: expect.stringContaining('unknown operation listForms') },
    });
    expect(parseCommandLine(['--help'], {})).toEqual({ ok: true, value: { help: HELP } });
  });
});
