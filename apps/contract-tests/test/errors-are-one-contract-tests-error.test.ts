// The suite's errors follow the one convention (CONTRIBUTING.md, "Errors and results"): one class,
// ContractTestsError, with a snake_case kind, a message saying what to do and a frozen context,
// recognised by isContractTestsError() across module copies (issue 21 item 3: LiveConfigError,
// StartError and SandboxUnavailable were subclasses with kebab-case kinds; --help was an "error").
import { expect, test, vi } from 'vitest';
import { HELP, parseCommandLine } from '../src/cli-args.js';
import { ContractTestsError, isContractTestsError } from '../src/errors.js';
import { loadLiveConfig } from '../src/targets/live.js';
import { freePort, startProcess, waitUntilAnswering } from '../src/targets/process.js';

test('a malformed command line is a usage error naming what was wrong; --help is not an error', () => {
  const unknown = parseCommandLine(['--target', 'staging,prism,nowhere'], {});
  expect(unknown.ok).toBe(false);
  if (unknown.ok) return;
  expect(isContractTestsError(unknown.error)).toBe(true);
  expect(unknown.error).toMatchObject({
    name: 'ContractTestsError',
    kind: 'usage',
    context: { unknown: ['staging', 'nowhere'] },
    message: expect.stringContaining('known: prism'),
  });
  expect(parseCommandLine(['--no-such-flag'], {})).toMatchObject({ ok: false, error: { kind: 'usage' } });
  expect(parseCommandLine(['--help'], {})).toEqual({ ok: true, value: { help: HELP } });
});

test('missing live settings are a live_config error listing the variables, never their values', () => {
  const result = loadLiveConfig({ env: { FORMS_API_TOKEN: 'secret-token-value' }, write: false });
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(isContractTestsError(result.error)).toBe(true);
  expect(result.error.kind).toBe('live_config');
  expect(result.error.context).toEqual({
    missing: ['FORMS_API_BASE_URL', 'FORMS_API_WORKSPACE_ID', 'FORMS_API_FORM_ID'],
  });
  expect(JSON.stringify(result.error.context) + result.error.message).not.toContain('secret-token-value');
  expect(Object.isFrozen(result.error.context)).toBe(true);
});

test('a process that never answers is a start_failed error, and it is stopped', async () => {
  const idle = startProcess(process.execPath, ['-e', 'setInterval(() => {}, 60_000)'], 'idle');
  const url = `http://127.0.0.1:${await freePort()}/`;
  const failed = await waitUntilAnswering(url, idle, 'idle', 300).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(isContractTestsError(failed)).toBe(true);
  expect(failed).toMatchObject({
    kind: 'start_failed',
    context: { label: 'idle', url, timeoutMs: 300 },
    message: expect.stringContaining(`idle did not answer on ${url}`),
  });
  expect(() => process.kill(idle.pid, 0)).toThrow();
});

test('isContractTestsError recognises an error of another copy of the module, where instanceof does not', async () => {
  vi.resetModules();
  const otherCopy = (await import('../src/errors.js')) as typeof import('../src/errors.js');
  expect(otherCopy.ContractTestsError).not.toBe(ContractTestsError);
  const foreign = new otherCopy.ContractTestsError('invalid_json', 'the body is empty');
  expect(foreign instanceof ContractTestsError).toBe(false);
  expect(isContractTestsError(foreign)).toBe(true);
  expect(otherCopy.isContractTestsError(new ContractTestsError('usage', 'm'))).toBe(true);
  expect(isContractTestsError(Object.assign(new Error('m'), { name: 'ContractTestsError', kind: 'usage' }))).toBe(
    false,
  );
  expect(isContractTestsError(undefined)).toBe(false);
});
