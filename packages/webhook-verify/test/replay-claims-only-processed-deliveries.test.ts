// The replay guard claims a delivery only once it passed every check, gives the claim back when
// the handler fails, and lets exactly one of two concurrent arrivals through.
import { describe, expect, it } from 'vitest';
import {
  MemoryReplayStore,
  WebhookVerifyError,
  createVerifier,
  handleWebhook,
  parseWebhook,
  sign,
} from '../src/node.js';
import * as web from '../src/web.js';
import { createPayloadValidator } from '../src/validate.js';
import { BODY, SECRET, SIGNATURE } from './http-helpers.js';

const reasonOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'none',
    (e: WebhookVerifyError) => e.kind,
  );

describe.each([
  ['node', { parseWebhook, handleWebhook, createVerifier }],
  ['web', web],
])('%s build', (_name, api) => {
  it('does not claim a delivery refused as not JSON or not a valid payload', async () => {
    const replayStore = new MemoryReplayStore();
    const notJson = 'form_id=1';
    const notJsonSignature = await sign(SECRET, notJson);
    expect(await reasonOf(api.parseWebhook(SECRET, notJson, notJsonSignature, { replayStore }))).toBe('invalid_json');
    expect(await reasonOf(api.parseWebhook(SECRET, notJson, notJsonSignature, { replayStore }))).toBe('invalid_json');

    const refuseAll = () => ['/ refused by a stricter validator'];
    expect(await reasonOf(api.parseWebhook(SECRET, BODY, SIGNATURE, { replayStore, validate: refuseAll }))).toBe(
      'invalid_payload',
    );
    expect(await reasonOf(api.parseWebhook(SECRET, BODY, SIGNATURE, { replayStore, validate: refuseAll }))).toBe(
      'invalid_payload',
    );
    // The receiver is fixed and redeployed: the sender's retry is processed, not refused as a replay.
    expect(
      await reasonOf(api.parseWebhook(SECRET, BODY, SIGNATURE, { replayStore, validate: createPayloadValidator() })),
    ).toBe('none');
    expect(await reasonOf(api.parseWebhook(SECRET, BODY, SIGNATURE, { replayStore }))).toBe('replayed');
  });

  it('does not claim a delivery whose signature does not match', async () => {
    const replayStore = new MemoryReplayStore();
    expect(await reasonOf(api.parseWebhook('whsec_another_secret', BODY, SIGNATURE, { replayStore }))).toBe(
      'signature_mismatch',
    );
    expect(replayStore.size).toBe(0);
  });

  it('handleWebhook gives the claim back when the handler throws, and keeps it when it succeeds', async () => {
    const replayStore = new MemoryReplayStore();
    const failure = new Error('database down');
    await expect(
      api.handleWebhook(SECRET, BODY, SIGNATURE, () => Promise.reject(failure), { replayStore }),
    ).rejects.toBe(failure);
    await expect(
      api.handleWebhook(
        SECRET,
        BODY,
        SIGNATURE,
        () => {
          throw failure;
        },
        { replayStore },
      ),
    ).rejects.toBe(failure);
    expect(await api.handleWebhook(SECRET, BODY, SIGNATURE, (payload) => payload.submission_id, { replayStore })).toBe(
      456,
    );
    expect(await reasonOf(api.handleWebhook(SECRET, BODY, SIGNATURE, () => 'twice', { replayStore }))).toBe('replayed');
  });

  it('createVerifier().handleWebhook does the same', async () => {
    const verifier = api.createVerifier({ secret: SECRET, replayStore: new MemoryReplayStore() });
    await expect(
      verifier.handleWebhook(BODY, SIGNATURE, () => {
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(await verifier.handleWebhook(BODY, SIGNATURE, () => 'processed')).toBe('processed');
    expect(await reasonOf(verifier.parseWebhook(BODY, SIGNATURE))).toBe('replayed');
  });

  it('lets exactly one of two concurrent arrivals of a delivery through', async () => {
    const verifier = api.createVerifier({ secret: SECRET, replayStore: new MemoryReplayStore() });
    let processed = 0;
    const outcomes = await Promise.all(
      [1, 2].map(() =>
        reasonOf(
          verifier.handleWebhook(BODY, SIGNATURE, async () => {
            processed++;
            await new Promise((r) => setTimeout(r, 20));
          }),
        ),
      ),
    );
    expect(outcomes.sort()).toEqual(['none', 'replayed']);
    expect(processed).toBe(1);
  });
});

describe('parseWebhook with a replay store', () => {
  it('keeps the claim; the caller gives it back with the signature header as the key', async () => {
    const replayStore = new MemoryReplayStore();
    await parseWebhook(SECRET, BODY, SIGNATURE, { replayStore });
    expect(await reasonOf(parseWebhook(SECRET, BODY, SIGNATURE, { replayStore }))).toBe('replayed');
    await replayStore.release(SIGNATURE);
    expect(await reasonOf(parseWebhook(SECRET, BODY, SIGNATURE, { replayStore }))).toBe('none');
  });

  it('refuses a store without claim and release, naming the two methods it needs', async () => {
    const incomplete = { claim: () => true };
    const error = await parseWebhook(SECRET, BODY, SIGNATURE, { replayStore: incomplete as never }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WebhookVerifyError);
    expect(error).toMatchObject({ kind: 'invalid_option', context: { option: 'replayStore' } });
    expect((error as Error).message).toMatch(/claim\(key, ttlMs\).*release\(key\)/);
    expect(() => createVerifier({ secret: SECRET, replayStore: incomplete as never })).toThrow(WebhookVerifyError);
  });
});

describe('MemoryReplayStore', () => {
  it('claims a key once until it expires or is released', () => {
    let now = 0;
    const store = new MemoryReplayStore({ now: () => now });
    expect(store.claim('k', 100)).toBe(true);
    expect(store.claim('k', 100)).toBe(false);
    now = 101;
    expect(store.claim('k', 100)).toBe(true);
    store.release('k');
    expect(store.claim('k', 100)).toBe(true);
  });
});
