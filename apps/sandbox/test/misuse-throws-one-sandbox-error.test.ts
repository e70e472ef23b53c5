// The sandbox's programmatic API has one error convention (CONTRIBUTING.md, "Errors and results"):
// startSandbox() and loadSeed() throw a SandboxError with a snake_case kind, a message that says
// what to change and a frozen context, recognised by isSandboxError() across module copies
// (issue 21 item 3: loadSeed returned a Result while startSandbox threw; kinds were kebab-case;
// a taken port rejected with a bare Node error).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listen } from '@forms-api/test-support';
import { afterAll, expect, test, vi } from 'vitest';
import { defaultSeed, isSandboxError, loadSeed, SandboxError, startSandbox } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-errors-'));
const listeningServers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'TCPServerWrap').length;

/** The count of active handles once it is at most `limit`, or after ten turns of the event loop (a closed handle is released in the loop's close phase). */
async function resourcesSettleTo(limit: number): Promise<number> {
  for (let turn = 0; turn < 10 && process.getActiveResourcesInfo().length > limit; turn++)
    await new Promise((resolve) => setImmediate(resolve));
  return process.getActiveResourcesInfo().length;
}

/** What `run` threw (or `undefined`). */
function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

test('loadSeed returns the fixture, and throws a SandboxError for a seed it cannot use', () => {
  expect(loadSeed(undefined)).toEqual(defaultSeed());
  const fixture = defaultSeed();
  expect(loadSeed(fixture)).toBe(fixture);

  const missingFile = join(dir, 'no-such-seed.json');
  const unreadable = thrownBy(() => loadSeed(missingFile));
  expect(isSandboxError(unreadable)).toBe(true);
  expect(unreadable).toMatchObject({
    name: 'SandboxError',
    kind: 'unreadable_seed',
    context: { path: missingFile },
    message: expect.stringContaining('Pass the path of a JSON fixture'),
  });
  expect((unreadable as Error).cause).toMatchObject({ code: 'ENOENT' });

  const notJson = join(dir, 'not-json.json');
  writeFileSync(notJson, '{ "workspaces": [');
  expect(thrownBy(() => loadSeed(notJson))).toMatchObject({ kind: 'unreadable_seed', context: { path: notJson } });

  const partial = join(dir, 'partial.json');
  writeFileSync(partial, JSON.stringify({ workspaces: [], users: [] }));
  expect(thrownBy(() => loadSeed(partial))).toMatchObject({
    kind: 'invalid_seed',
    context: { missing: ['tokens', 'forms', 'submissions'] },
  });

  const tokenless = { ...defaultSeed(), tokens: [] };
  expect(thrownBy(() => loadSeed(tokenless))).toMatchObject({
    kind: 'invalid_seed',
    context: { absent: expect.any(Array) },
  });
});

test('startSandbox rejects a bad seed, behaviour or port with the same error, before it listens', async () => {
  const before = listeningServers();
  const refusals = await Promise.all(
    [{ seed: join(dir, 'absent.json') }, { behaviour: 'lenient' as never }, { port: 70_000 }, { port: 1.5 }].map(
      (options) =>
        startSandbox(options).then(
          async (handle) => handle.close(),
          (error: unknown) => error,
        ),
    ),
  );
  expect(refusals.map((error) => isSandboxError(error) && error.kind)).toEqual([
    'unreadable_seed',
    'unknown_behaviour',
    'invalid_option',
    'invalid_option',
  ]);
  expect(refusals[2]).toMatchObject({ context: { port: 70_000 }, message: expect.stringContaining('0 to 65535') });
  expect(listeningServers()).toBe(before);
});

test('a taken port rejects with listen_failed, saying what to do, and leaves nothing open', async () => {
  const { port, close } = await listen(createServer());
  try {
    const before = process.getActiveResourcesInfo().length;
    const refused = await startSandbox({ port, rateLimit: false }).then(
      async (handle) => handle.close(),
      (error: unknown) => error,
    );
    expect(isSandboxError(refused)).toBe(true);
    expect(refused).toMatchObject({
      kind: 'listen_failed',
      context: { host: '127.0.0.1', port, code: 'EADDRINUSE' },
      message: expect.stringContaining('choose another port, or 0'),
    });
    expect((refused as Error).cause).toMatchObject({ code: 'EADDRINUSE' });
    expect(await resourcesSettleTo(before)).toBeLessThanOrEqual(before);
  } finally {
    await close();
  }
});

test('the context is read-only', () => {
  const error = new SandboxError('invalid_option', 'port must be …', { context: { port: -1 } });
  expect(Object.isFrozen(error.context)).toBe(true);
  expect(() => {
    (error.context as Record<string, unknown>).port = 1;
  }).toThrow(TypeError);
});

test('isSandboxError recognises an error of another copy of the module, where instanceof does not', async () => {
  vi.resetModules();
  const otherCopy = (await import('../src/errors.js')) as typeof import('../src/errors.js');
  expect(otherCopy.SandboxError).not.toBe(SandboxError);
  const foreign = new otherCopy.SandboxError('unknown_fault', 'Unknown sandbox fault(s): x.', {
    context: { unknown: ['x'] },
  });
  expect(foreign instanceof SandboxError).toBe(false);
  expect(isSandboxError(foreign)).toBe(true);
  expect(otherCopy.isSandboxError(new SandboxError('invalid_seed', 'm'))).toBe(true);
  // Look-alikes are not SandboxErrors: the brand, not the name, decides.
  expect(isSandboxError(Object.assign(new Error('m'), { name: 'SandboxError', kind: 'invalid_seed' }))).toBe(false);
  expect(isSandboxError(null)).toBe(false);
  expect(isSandboxError('SandboxError')).toBe(false);
});

afterAll(() => {
  vi.resetModules();
});
