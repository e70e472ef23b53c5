// Issue 22 bug 1: live settings present and no target naming the tenant. A CI job that forgot
// `--target live` must not go green having run only the local targets: the command is refused,
// naming the flag, before anything starts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../src/cli-args.js';
import { runCli } from '../src/run-cli.js';

const TOKEN = '7|liveSettingsSecret0123456789abcdefghijkl';
const settings = {
  FORMS_API_BASE_URL: 'https://forms.example',
  FORMS_API_TOKEN: TOKEN,
  FORMS_API_WORKSPACE_ID: '1',
  FORMS_API_FORM_ID: '42',
};

async function run(argv: string[], env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli({
    argv,
    env,
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    signal: new AbortController().signal,
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('live settings without --target live', () => {
  it('FORMS_API_* variables and no target: refused (exit 2), naming --target live and the variables, never their values', async () => {
    const result = await run([], settings);
    expect(result.code).toBe(2);
    expect(result.err).toContain('--target live');
    expect(result.err).toContain('FORMS_API_BASE_URL, FORMS_API_TOKEN, FORMS_API_WORKSPACE_ID, FORMS_API_FORM_ID');
    expect(result.err).not.toContain(TOKEN);
    expect(result.err).not.toContain('forms.example');
    // Refused before any target started.
    expect(result.err).not.toContain('== target');
  }, 120_000);

  it('one variable is enough', () => {
    const parsed = parseCommandLine([], { FORMS_API_TOKEN: TOKEN });
    expect(parsed).toMatchObject({
      ok: false,
      error: { kind: 'usage', message: expect.stringContaining('--target live') },
    });
  });

  it('--config without live is refused, even with targets named', () => {
    const dir = mkdtempSync(join(tmpdir(), 'contract-config-'));
    const file = join(dir, 'contract.config.json');
    writeFileSync(file, JSON.stringify({ baseUrl: 'https://forms.example', workspaceId: 1, formId: 2 }));
    for (const argv of [
      ['--config', file],
      ['--config', file, '--target', 'prism'],
    ]) {
      const parsed = parseCommandLine(argv, {});
      expect(parsed).toMatchObject({
        ok: false,
        error: { kind: 'usage', message: expect.stringContaining('--target live') },
      });
      expect(!parsed.ok && parsed.error.message).toContain('--config');
    }
  });

  it('targets named on purpose are run as named, with a notice that the tenant is left out', () => {
    expect(parseCommandLine(['--target', 'prism'], settings)).toMatchObject({
      ok: true,
      value: { targets: ['prism'], notice: expect.stringContaining('it is not run') },
    });
    expect(parseCommandLine([], { ...settings, FORMS_CONTRACT_TARGETS: 'sandbox' })).toMatchObject({
      ok: true,
      value: { targets: ['sandbox'], notice: expect.stringContaining('FORMS_API_TOKEN') },
    });
  });

  it('with --target live the settings are used; without settings the default targets run', () => {
    expect(parseCommandLine(['--target', 'live'], settings)).toMatchObject({
      ok: true,
      value: { targets: ['live'] },
    });
    const plain = parseCommandLine([], {});
    expect(plain).toMatchObject({ ok: true, value: { targets: ['prism', 'sandbox', 'sandbox-observed'] } });
    expect(plain.ok && 'notice' in plain.value).toBe(false);
    // An empty variable is not a setting (CI often defines unset secrets as empty).
    expect(parseCommandLine([], { FORMS_API_TOKEN: '' }).ok).toBe(true);
  });
});

// A new user's trial: without FORMS_API_WORKSPACE_ID, `--target prism,sandbox,live` ran Prism and
// the sandbox (42 s) before saying the live target needs it. The settings are checked first: exit
// 2 with the variable to set, no target started, no value echoed.
describe('live settings that cannot work', () => {
  it('a missing variable: exit 2 naming it, before any target starts', async () => {
    const result = await run(['--target', 'prism,sandbox,live'], {
      FORMS_API_BASE_URL: 'https://forms.example',
      FORMS_API_TOKEN: TOKEN,
      FORMS_API_FORM_ID: '42',
    });
    expect(result.code).toBe(2);
    expect(result.err).toContain('FORMS_API_WORKSPACE_ID');
    expect(result.err).not.toContain('== target');
    expect(result.err).not.toContain(TOKEN);
    expect(result.err).not.toContain('forms.example');
  });

  it('an invalid value: exit 2 naming what is wrong', async () => {
    const result = await run(['--target', 'live'], {
      FORMS_API_BASE_URL: 'forms.example',
      FORMS_API_TOKEN: TOKEN,
      FORMS_API_WORKSPACE_ID: '1',
      FORMS_API_FORM_ID: '42',
    });
    expect(result.code).toBe(2);
    expect(result.err).toContain('FORMS_API_BASE_URL must be an http(s) URL');
    expect(result.err).not.toContain('== target');
  });
});
