// An application can load the ESM and the CommonJS build side by side (its code imports, a
// dependency requires): an error thrown by one copy is recognised, and answered, by the other.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type * as Build from '../src/node.js';
import type * as FetchBuild from '../src/adapters/fetch-node.js';

const require = createRequire(import.meta.url);
const esm = (await import(new URL('../dist/node.js', import.meta.url).href)) as typeof Build;
const cjs = require('../dist/node.cjs') as typeof Build;
const cjsFetch = require('../dist/adapters/fetch-node.cjs') as typeof FetchBuild;

const SECRET = 'whsec_cross_copy_secret';
const BODY = '{"form_id":1}';

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('should have failed'),
    (error: unknown) => error,
  );

describe('WebhookVerifyError across the ESM and the CommonJS build', () => {
  it('the two builds really are two copies: instanceof alone does not see the other one', async () => {
    expect(esm.WebhookVerifyError).not.toBe(cjs.WebhookVerifyError);
    const fromCjs = await failureOf(cjs.verifyOrThrow(SECRET, BODY, `sha256=${'0'.repeat(64)}`));
    expect(fromCjs).toBeInstanceOf(cjs.WebhookVerifyError);
    expect(fromCjs).not.toBeInstanceOf(esm.WebhookVerifyError);
  });

  it.each([
    ['ESM', 'CommonJS', esm, cjs],
    ['CommonJS', 'ESM', cjs, esm],
  ] as const)('the %s guard recognises a verification failure of the %s copy', async (_a, _b, judge, thrower) => {
    const error = await failureOf(thrower.verifyOrThrow(SECRET, BODY, `sha256=${'0'.repeat(64)}`));
    expect(judge.isWebhookVerifyError(error)).toBe(true);
    expect(error).toMatchObject({ name: 'WebhookVerifyError', kind: 'signature_mismatch' });
    // The rejection table judges it as its own: 401, not the 500 of an unknown error.
    expect(judge.rejectionFor(error)).toMatchObject({ status: 401, reason: 'signature_mismatch' });
  });

  it('a misuse from the CommonJS copy is answered as a misuse (500 naming its kind) by the ESM copy', () => {
    let error: unknown;
    try {
      cjs.createVerifier({ secret: '' });
    } catch (caught) {
      error = caught;
    }
    expect(esm.isWebhookVerifyError(error)).toBe(true);
    expect(esm.rejectionFor(error)).toMatchObject({ status: 500, reason: 'invalid_secret' });
  });

  it("a request refused by the CommonJS fetch adapter keeps its context and gets the ESM table's answer", async () => {
    const request = new Request('http://127.0.0.1/hook', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(64),
    });
    const error = await failureOf(cjsFetch.verifyFetchRequest(request, { secret: SECRET, maxBodyBytes: 16 }));
    expect(esm.isWebhookVerifyError(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'body_too_large', context: { limit: 16 } });
    expect(Object.isFrozen((error as Build.WebhookVerifyError).context)).toBe(true);
    expect(esm.rejectionFor(error)).toMatchObject({ status: 413, reason: 'body_too_large' });
  });

  it('recognises the brand, not a look-alike: an Error named WebhookVerifyError with a kind is not one', () => {
    const lookAlike = Object.assign(new Error('forged'), { name: 'WebhookVerifyError', kind: 'replayed' });
    for (const build of [esm, cjs]) {
      expect(build.isWebhookVerifyError(lookAlike)).toBe(false);
      expect(build.isWebhookVerifyError(null)).toBe(false);
      expect(build.isWebhookVerifyError('signature_mismatch')).toBe(false);
      expect(build.rejectionFor(lookAlike)).toMatchObject({ status: 500, reason: 'internal_error' });
    }
  });
});
