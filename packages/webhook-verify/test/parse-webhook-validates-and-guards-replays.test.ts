// parseWebhook verifies, parses, optionally validates against the spec's payload schema and
// refuses replays; createVerifier binds secrets once.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MemoryReplayStore, WebhookVerifyError, createVerifier, parseWebhook, sign } from '../src/node.js';
import * as web from '../src/web.js';
import { createPayloadValidator } from '../src/validate.js';

const vectors = JSON.parse(readFileSync(new URL('./vectors.json', import.meta.url), 'utf8'));
const SECRET = vectors.defaultSecret as string;
const BODY = vectors.valid[0].body.utf8 as string;
const SIGNATURE = vectors.valid[0].signature as string;

const reasonOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'none',
    (e: WebhookVerifyError) => e.kind,
  );

describe('parseWebhook', () => {
  it('returns the typed payload of a valid request', async () => {
    const payload = await parseWebhook(SECRET, BODY, SIGNATURE, { validate: createPayloadValidator() });
    expect(payload.form_id).toBe(123);
    expect(payload.submission_id).toBe(456);
    expect(payload.form_title).toBe('Contact Form');
  });

  it('reports each failure with its reason', async () => {
    expect(await reasonOf(parseWebhook(SECRET, BODY, undefined))).toBe('missing_signature');
    expect(await reasonOf(parseWebhook(SECRET, BODY, 'sha256=XYZ'))).toBe('malformed_signature');
    expect(await reasonOf(parseWebhook(SECRET, `${BODY} `, SIGNATURE))).toBe('signature_mismatch');
    const notJson = 'form_id=1';
    expect(await reasonOf(parseWebhook(SECRET, notJson, await sign(SECRET, notJson)))).toBe('invalid_json');
    const wrongShape = JSON.stringify({ form_id: 'one', submission: {} });
    const error = (await parseWebhook(SECRET, wrongShape, await sign(SECRET, wrongShape), {
      validate: createPayloadValidator(),
    }).catch((e) => e)) as WebhookVerifyError;
    expect(error.kind).toBe('invalid_payload');
    expect(error.context.problems?.join('\n')).toMatch(/form_title|form_id/);
  });

  it('explains the raw-body pitfall on a mismatch', async () => {
    const reserialised = JSON.stringify(JSON.parse(BODY), null, 2);
    const error = (await parseWebhook(SECRET, reserialised, SIGNATURE).catch((e) => e)) as Error;
    expect(error.message).toMatch(/raw request body/);
    expect(error.message).toMatch(/express\.raw/);
  });

  it('refuses a replayed signature within the window and accepts it after', async () => {
    let now = 1_000_000;
    const replayStore = new MemoryReplayStore({ now: () => now });
    await parseWebhook(SECRET, BODY, SIGNATURE, { replayStore, replayTtlMs: 60_000 });
    expect(await reasonOf(parseWebhook(SECRET, BODY, SIGNATURE, { replayStore, replayTtlMs: 60_000 }))).toBe(
      'replayed',
    );
    now += 60_001;
    expect(await reasonOf(parseWebhook(SECRET, BODY, SIGNATURE, { replayStore, replayTtlMs: 60_000 }))).toBe('none');
  });

  it('keeps the replay store bounded', () => {
    const store = new MemoryReplayStore({ maxEntries: 3 });
    for (const key of ['a', 'b', 'c', 'd', 'e']) store.claim(key, 1000);
    expect(store.size).toBe(3);
    expect(store.claim('a', 1000)).toBe(true); // dropped, so claimable again
    expect(store.claim('e', 1000)).toBe(false);
  });
});

describe('createVerifier', () => {
  it.each([
    ['node', createVerifier],
    ['web', web.createVerifier],
  ])('%s: verifies with rotated secrets and signs with the first', async (_name, create) => {
    const verifier = create({ secret: ['whsec_new_secret_123', SECRET] });
    expect(await verifier.verify(BODY, SIGNATURE)).toBe(true);
    expect(await verifier.sign(BODY)).toBe(await sign('whsec_new_secret_123', BODY));
    await expect(verifier.verifyOrThrow(BODY, 'sha256=' + 'a'.repeat(64))).rejects.toMatchObject({
      kind: 'signature_mismatch',
    });
    expect((await verifier.parseWebhook(BODY, SIGNATURE)).submission_id).toBe(456);
  });
});
