// An application can load the ESM and the CommonJS build side by side: an InboxError of one copy
// is recognised by the other's isInboxError and isUnavailable, where `instanceof` is not.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type * as Build from '../src/index.js';
import { SECRET } from './support/deliveries.js';

const require = createRequire(import.meta.url);
const esm = (await import(new URL('../dist/index.js', import.meta.url).href)) as typeof Build;
const cjs = require('../dist/index.cjs') as typeof Build;

function thrownBy(attempt: () => unknown): unknown {
  try {
    attempt();
  } catch (error) {
    return error;
  }
  return expect.unreachable('should have thrown');
}

describe('InboxError across the ESM and the CommonJS build', () => {
  it.each([
    ['ESM', 'CommonJS', esm, cjs],
    ['CommonJS', 'ESM', cjs, esm],
  ] as const)('the %s isInboxError recognises an error of the %s copy', (_a, _b, judge, thrower) => {
    const error = thrownBy(() => thrower.createInbox({ connection: 'localhost:6379', secret: SECRET }));
    expect(error).not.toBeInstanceOf(judge.InboxError);
    expect(judge.isInboxError(error)).toBe(true);
    expect(error).toMatchObject({ name: 'InboxError', kind: 'invalid_option' });
    expect(judge.isUnavailable(error)).toBe(false);
  });

  it('isUnavailable of one copy sees an unavailable kind of the other', () => {
    const closing = new cjs.InboxError('closing', 'The inbox is shutting down.');
    expect(esm.isInboxError(closing)).toBe(true);
    expect(esm.isUnavailable(closing)).toBe(true);
  });

  it('is not fooled by values that are not errors of the inbox', () => {
    for (const build of [esm, cjs]) {
      expect(build.isInboxError(new Error('x'))).toBe(false);
      expect(build.isInboxError({ name: 'InboxError' })).toBe(false);
      expect(build.isInboxError(null)).toBe(false);
      expect(build.isInboxError('InboxError')).toBe(false);
    }
  });
});
