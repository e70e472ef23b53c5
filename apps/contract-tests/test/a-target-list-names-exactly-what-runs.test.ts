// --target and FORMS_CONTRACT_TARGETS are one setting: a list of exactly the targets that run, so
// `--target live` runs the tenant alone, as `FORMS_CONTRACT_TARGETS=live` does; with neither, the
// embedded targets run (issue 30, item 12).
import { describe, expect, it } from 'vitest';
import { HELP, parseCommandLine } from '../src/cli-args.js';

const settings = {
  FORMS_API_BASE_URL: 'https://forms.example',
  FORMS_API_TOKEN: 't0ken-value',
  FORMS_API_WORKSPACE_ID: '1',
  FORMS_API_FORM_ID: '2',
};
const targetsOf = (argv: string[], env: NodeJS.ProcessEnv) => {
  const parsed = parseCommandLine(argv, env);
  return parsed.ok && 'targets' in parsed.value ? parsed.value.targets : parsed;
};

describe('the target list', () => {
  it('--target live runs the tenant alone, as FORMS_CONTRACT_TARGETS=live does', () => {
    expect(targetsOf(['--target', 'live'], settings)).toEqual(['live']);
    expect(targetsOf([], { ...settings, FORMS_CONTRACT_TARGETS: 'live' })).toEqual(['live']);
  });

  it('the flag and the variable take the same lists, in the order named; the flag wins', () => {
    for (const list of ['prism,sandbox,live', 'sandbox-observed,live', 'prism']) {
      expect(targetsOf(['--target', list], settings)).toEqual(list.split(','));
      expect(targetsOf([], { ...settings, FORMS_CONTRACT_TARGETS: list })).toEqual(list.split(','));
    }
    expect(targetsOf(['--target', 'live'], { ...settings, FORMS_CONTRACT_TARGETS: 'prism,sandbox,live' })).toEqual([
      'live',
    ]);
  });

  it('with neither, prism and both sandboxes run', () => {
    expect(targetsOf([], {})).toEqual(['prism', 'sandbox', 'sandbox-observed']);
  });

  it('--help says the list names exactly what runs', () => {
    expect(HELP).toContain('--target live runs your tenant alone');
    expect(HELP).not.toContain('"live" alone runs prism, sandbox and live');
  });
});
