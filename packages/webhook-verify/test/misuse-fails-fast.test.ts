// Programming mistakes throw a WebhookVerifyError at once instead of verifying to `false`.
import { describe, expect, it } from 'vitest';
import { WebhookVerifyError, verify, sign, verifyOrThrow, parseWebhook, createVerifier } from '../src/node.js';

const SECRET = 'whsec_1234567890ab';

describe('misuse', () => {
  it.each([
    ['a parsed object', { form_id: 1 }],
    ['an array', [1, 2]],
    ['a number', 42],
    ['null', null],
    ['undefined', undefined],
  ])('refuses %s as the body', async (_label, body) => {
    const error = await verify(SECRET, body as never, 'sha256=' + '0'.repeat(64)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookVerifyError);
    expect((error as WebhookVerifyError).kind).toBe('invalid_body');
    expect((error as Error).message).toMatch(/raw request body/);
  });

  it('says "pass the raw request body, not parsed JSON" for objects', async () => {
    await expect(sign(SECRET, { a: 1 } as never)).rejects.toThrow(/not parsed JSON/);
  });

  it.each([
    ['an empty secret', ''],
    ['a secret with a trailing newline', `${SECRET}\n`],
    ['a secret with a leading space', ` ${SECRET}`],
    ['an empty list of secrets', []],
    ['a list holding an empty secret', [SECRET, '']],
    ['a non-string secret', 12345],
  ])('refuses %s', async (_label, secret) => {
    for (const call of [
      () => verify(secret as never, '{}', null),
      () => verifyOrThrow(secret as never, '{}', null),
      () => parseWebhook(secret as never, '{}', null),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WebhookVerifyError);
      expect((error as WebhookVerifyError).kind).toBe('invalid_secret');
    }
    expect(() => createVerifier({ secret: secret as never })).toThrow(WebhookVerifyError);
  });

  it('checks misuse before the header, so a missing header does not hide it', async () => {
    await expect(verify('', '{}', undefined)).rejects.toBeInstanceOf(WebhookVerifyError);
  });

  it('never puts the secret in an error message', async () => {
    const error = (await verify(`${SECRET} `, '{}', null).catch((e: unknown) => e)) as Error;
    expect(error.message).not.toContain(SECRET);
  });
});
