// Programming mistakes throw a WebhookVerifyError at once instead of verifying to `false`.
import { describe, expect, it, vi } from 'vitest';
import Fastify from 'fastify';
import { webhookMiddleware } from '../src/adapters/express.js';
import { webhookVerify } from '../src/adapters/fastify.js';
import { sign as webSign } from '../src/web.js';
import * as fetchNode from '../src/adapters/fetch-node.js';
import {
  MemoryReplayStore,
  WebhookVerifyError,
  verify,
  sign,
  verifyOrThrow,
  parseWebhook,
  createVerifier,
} from '../src/node.js';

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

  // A misspelt option would leave its default in place unseen: `validator` would verify no payload,
  // `replayTTLMs` keep claims for 24 hours, `maxBodyByte` take bodies of 1 MiB.
  it.each([
    ['createVerifier', () => createVerifier({ secret: SECRET, validator: () => [] } as never), 'validator', 'validate'],
    [
      'parseWebhook',
      () => parseWebhook(SECRET, '{}', null, { replayTTLMs: 1_000 } as never),
      'replayTTLMs',
      'replayTtlMs',
    ],
    [
      'an adapter',
      () => webhookMiddleware({ secret: SECRET, maxBodyByte: 10 } as never),
      'maxBodyByte',
      'maxBodyBytes',
    ],
    [
      'a fetch handler',
      () =>
        fetchNode.verifyWebhookRequest(new Request('http://x.test/'), {
          secret: SECRET,
          onDuplicates: 'reject',
        } as never),
      'onDuplicates',
      'onDuplicate',
    ],
  ])(
    'refuses a misspelt option of %s by name, with the option it is nearest to',
    async (_where, call, option, near) => {
      const error = await (async () => call())().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WebhookVerifyError);
      expect(error).toMatchObject({ kind: 'invalid_option', context: { option } });
      expect((error as Error).message).toContain(`\`${option}\` is not an option of`);
      expect((error as Error).message).toContain(`Did you mean \`${near}\`?`);
    },
  );

  it("takes Fastify's own register options beside its own, and refuses any other", async () => {
    const app = Fastify();
    await app.register(webhookVerify, { secret: SECRET, prefix: '/hooks', logLevel: 'warn' } as never);
    await app.ready();
    await app.close();
    const misspelt = Fastify();
    await expect(
      misspelt.register(webhookVerify, { secret: SECRET, bodyTimeout: 1_000 } as never).ready(),
    ).rejects.toMatchObject({
      kind: 'invalid_option',
      context: { option: 'bodyTimeout' },
    });
    await misspelt.close();
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses a MemoryReplayStore of maxEntries %s as its one error', (maxEntries) => {
    expect(() => new MemoryReplayStore({ maxEntries })).toThrow(
      expect.objectContaining({
        name: 'WebhookVerifyError',
        kind: 'invalid_option',
        context: { option: 'maxEntries' },
      }),
    );
  });

  it('says which build to use where the web build finds no Web Crypto (a browser page over http)', async () => {
    vi.stubGlobal('crypto', undefined);
    try {
      const error = await webSign('whsec_no_web_crypto_here_0123', '{}').catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'WebhookVerifyError', kind: 'unsupported_runtime' });
      expect((error as Error).message).toMatch(/Node build/);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
