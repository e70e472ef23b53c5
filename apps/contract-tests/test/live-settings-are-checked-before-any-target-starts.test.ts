// A new user's trial: without FORMS_API_WORKSPACE_ID, `--target prism,sandbox,live` ran Prism and
// the sandbox (42 s) before saying the live target needs it. The settings are checked first: exit
// 2 with the variable to set, no target started, no value echoed.
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/run-cli.js';

const TOKEN = '7|liveSettingsSecret0123456789abcdefghijkl';

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

describe('live settings that cannot work', () => {
  it('a missing variable: exit 2 naming it, before any target starts', async () => {
    const started = performance.now();
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
    expect(performance.now() - started).toBeLessThan(5_000);
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
