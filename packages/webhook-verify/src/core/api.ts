// The shared behaviour of every build: sign, verify, verifyOrThrow, parseWebhook, handleWebhook
// and createVerifier, written once over an HMAC backend (node:crypto or Web Crypto).
import type { SubmissionCreatedPayload } from '@forms-api/types';
import type { HmacBackend, PreparedKey } from '../crypto/backend.js';
import { toBodyBytes, type RawBody } from './body.js';
import { verificationError, type WebhookVerificationKind } from './errors.js';
import { formatSignatureHeader, hasSignatureShape, signatureProblem } from './header.js';
import { checkParseOptions, type CheckedParseOptions, type ParseOptions } from './options.js';
import { assertSecret, normaliseSecrets } from './secret.js';

export type { ParseOptions, PayloadValidator } from './options.js';

/** Gives back the replay claim of a delivery that was not processed; a no-op without a replay store; safe to call twice. */
export type ReleaseClaim = () => Promise<void>;

export interface Verifier {
  sign(rawBody: RawBody): Promise<string>;
  verify(rawBody: RawBody, signatureHeader: string | null | undefined): Promise<boolean>;
  verifyOrThrow(rawBody: RawBody, signatureHeader: string | null | undefined): Promise<void>;
  /** Verifies, parses, validates, then claims the delivery (kept: see `handleWebhook` to give it back on failure). */
  parseWebhook(rawBody: RawBody, signatureHeader: string | null | undefined): Promise<SubmissionCreatedPayload>;
  /** Like `parseWebhook`, then runs `handler`; the replay claim is given back when the handler throws. */
  handleWebhook<T>(
    rawBody: RawBody,
    signatureHeader: string | null | undefined,
    handler: (payload: SubmissionCreatedPayload) => T | Promise<T>,
  ): Promise<T>;
}

/** What adapters build on: the checks of one delivery, and its claim, as separate steps. */
export interface Receiver {
  /** Signature, then JSON, then payload checks; claims nothing. */
  decode(body: Uint8Array, signatureHeader: unknown): Promise<SubmissionCreatedPayload>;
  /** Claims a verified delivery's signature (throws `replayed` when already claimed) and returns how to give it back. */
  claim(signature: string): Promise<ReleaseClaim>;
}

const decoder = new TextDecoder();

/** A failed comparison of an unvetted header is named by the format check: malformed or mismatched. */
function outcomeOf(ok: boolean, vetted: boolean, header: unknown): WebhookVerificationKind | null {
  if (ok) return null;
  return vetted ? 'signature_mismatch' : (signatureProblem(header) ?? 'signature_mismatch');
}
const NO_CLAIM: ReleaseClaim = async () => {};

export function createWebhookApi(backend: HmacBackend) {
  type Outcome = WebhookVerificationKind | null;

  /**
   * Checks every key (not stopping at the first match) so timing does not tell which secret
   * matched. Synchronous when the backend is (node:crypto), so the Node build pays for no extra
   * promise per verification.
   */
  function check(keys: readonly PreparedKey[], body: Uint8Array, header: unknown): Outcome | Promise<Outcome> {
    // With a backend that matches hex exactly, a header of the right shape goes straight to the
    // comparison: a match proves its digits are lowercase hex, and the full format check only
    // names a failure. Otherwise the header is vetted first, before its hex is decoded.
    const vetted = !(backend.matchesHexExactly && hasSignatureShape(header));
    if (vetted) {
      const problem = signatureProblem(header);
      if (problem) return problem;
    }
    const hex = (header as string).slice(7);
    if (keys.length === 1) {
      const result = keys[0]!.verify(body, hex);
      return typeof result === 'boolean'
        ? outcomeOf(result, vetted, header)
        : result.then((ok) => outcomeOf(ok, vetted, header));
    }
    const results = keys.map((key) => key.verify(body, hex));
    if (results.every((r): r is boolean => typeof r === 'boolean'))
      return outcomeOf(results.includes(true), vetted, header);
    return Promise.all(results).then((all) => outcomeOf(all.includes(true), vetted, header));
  }

  function receiver(keys: readonly PreparedKey[], options: CheckedParseOptions): Receiver {
    return {
      async decode(body, header) {
        const reason = await check(keys, body, header);
        if (reason) throw verificationError(reason);
        let payload: unknown;
        try {
          payload = JSON.parse(decoder.decode(body));
        } catch (cause) {
          throw verificationError('invalid_json', { cause });
        }
        // Even without a validator: `null`, an array or a scalar is never a payload, and a
        // handler typed for an object would fail on it far from here.
        if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
          throw verificationError('invalid_payload', {
            context: {
              problems: [
                `/ must be an object (the submission.created payload), not ${payload === null ? 'null' : Array.isArray(payload) ? 'an array' : `a ${typeof payload}`}`,
              ],
            },
          });
        }
        if (options.validate) {
          const problems = options.validate(payload);
          if (problems.length > 0) throw verificationError('invalid_payload', { context: { problems } });
        }
        return payload as SubmissionCreatedPayload;
      },
      async claim(signature) {
        const { replay } = options;
        if (!replay) return NO_CLAIM;
        if (!(await replay.store.claim(signature, replay.ttlMs))) throw verificationError('replayed');
        let released = false;
        return async () => {
          if (released) return;
          released = true;
          await replay.store.release(signature);
        };
      },
    };
  }

  async function parse(
    r: Receiver,
    body: Uint8Array,
    header: string | null | undefined,
  ): Promise<SubmissionCreatedPayload> {
    const payload = await r.decode(body, header);
    await r.claim(header as string);
    return payload;
  }

  async function handle<T>(
    r: Receiver,
    body: Uint8Array,
    header: string | null | undefined,
    handler: (payload: SubmissionCreatedPayload) => T | Promise<T>,
  ): Promise<T> {
    const payload = await r.decode(body, header);
    const release = await r.claim(header as string);
    try {
      return await handler(payload);
    } catch (error) {
      await releaseAfterFailure(release, error);
      throw error;
    }
  }

  // The keys of the last single secret used: receivers pass the same secret on every call, and
  // re-checking and re-preparing it is measurable at 1 KiB. One entry, so at most one secret
  // reference (the caller's own string) is held beyond the call.
  let lastSecret: string | undefined;
  let lastKeys: readonly PreparedKey[] = [];
  const prepareAll = (secret: string | readonly string[]): readonly PreparedKey[] => {
    // A string only: the cache starts out empty, and `undefined` (an unset variable) must reach the check.
    if (typeof secret === 'string' && secret === lastSecret) return lastKeys;
    if (typeof secret === 'string') {
      assertSecret(secret);
      lastKeys = [backend.prepare(secret)];
      lastSecret = secret;
      return lastKeys;
    }
    return normaliseSecrets(secret).map((s) => backend.prepare(s));
  };

  /**
   * `verify` and `verifyOrThrow` settle without an `async` wrapper: with node:crypto the outcome
   * is known at once, and each extra promise per call is measurable on small bodies. Misuse (a
   * parsed body, a bad secret) still arrives as a rejection, as from an async function.
   */
  function verifyWith(keys: readonly PreparedKey[], rawBody: RawBody, header: unknown): Promise<boolean> {
    try {
      const outcome = check(keys, toBodyBytes(rawBody), header);
      return typeof outcome === 'object' && outcome !== null
        ? outcome.then(isValid)
        : Promise.resolve(outcome === null);
    } catch (error) {
      return Promise.reject(error);
    }
  }
  function verifyOrThrowWith(keys: readonly PreparedKey[], rawBody: RawBody, header: unknown): Promise<void> {
    try {
      const outcome = check(keys, toBodyBytes(rawBody), header);
      if (typeof outcome === 'object' && outcome !== null) return outcome.then(throwIfInvalid);
      return outcome === null ? Promise.resolve() : Promise.reject(verificationError(outcome));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  const isValid = (outcome: Outcome) => outcome === null;
  const throwIfInvalid = (outcome: Outcome): void => {
    if (outcome) throw verificationError(outcome);
  };

  return {
    /** Returns the `X-Webhook-Signature` value for a body: `sha256=<lowercase hex>`. */
    async sign(secret: string, rawBody: RawBody): Promise<string> {
      assertSecret(secret);
      return formatSignatureHeader(await backend.prepare(secret).sign(toBodyBytes(rawBody)));
    },
    /** True when the header is a valid signature of the raw body under any of the secrets. */
    verify(
      secret: string | readonly string[],
      rawBody: RawBody,
      signatureHeader: string | null | undefined,
    ): Promise<boolean> {
      let keys: readonly PreparedKey[];
      try {
        keys = prepareAll(secret);
      } catch (error) {
        return Promise.reject(error);
      }
      return verifyWith(keys, rawBody, signatureHeader);
    },
    /** Like `verify`, but throws a `WebhookVerifyError` whose `kind` says why and what to do. */
    verifyOrThrow(
      secret: string | readonly string[],
      rawBody: RawBody,
      signatureHeader: string | null | undefined,
    ): Promise<void> {
      let keys: readonly PreparedKey[];
      try {
        keys = prepareAll(secret);
      } catch (error) {
        return Promise.reject(error);
      }
      return verifyOrThrowWith(keys, rawBody, signatureHeader);
    },
    /**
     * Verifies, then returns the parsed `submission.created` payload (optionally validated). With
     * a `replayStore`, the delivery is claimed last, once every check passed, and the claim is
     * kept: if processing then fails, `await replayStore.release(signatureHeader)` so the retry is
     * processed, or use `handleWebhook`, which does it for you.
     */
    async parseWebhook(
      secret: string | readonly string[],
      rawBody: RawBody,
      signatureHeader: string | null | undefined,
      options: ParseOptions = {},
    ): Promise<SubmissionCreatedPayload> {
      const keys = prepareAll(secret);
      return parse(receiver(keys, checkParseOptions(options, 'parseWebhook')), toBodyBytes(rawBody), signatureHeader);
    },
    /**
     * `parseWebhook`, then `handler(payload)`; resolves to what the handler returns. When the
     * handler throws, the replay claim is given back (so the same delivery arriving again is processed) and the
     * handler's error is rethrown unchanged.
     */
    async handleWebhook<T>(
      secret: string | readonly string[],
      rawBody: RawBody,
      signatureHeader: string | null | undefined,
      handler: (payload: SubmissionCreatedPayload) => T | Promise<T>,
      options: ParseOptions = {},
    ): Promise<T> {
      const keys = prepareAll(secret);
      return handle(
        receiver(keys, checkParseOptions(options, 'handleWebhook')),
        toBodyBytes(rawBody),
        signatureHeader,
        handler,
      );
    },
    /** A verifier bound to its secrets and options: keys are prepared and options checked once. */
    createVerifier(options: { secret: string | readonly string[] } & ParseOptions): Verifier {
      const keys = prepareAll(options.secret);
      const r = receiver(keys, checkParseOptions(options, 'createVerifier', ['secret']));
      return {
        async sign(rawBody) {
          return formatSignatureHeader(await keys[0]!.sign(toBodyBytes(rawBody)));
        },
        verify(rawBody, header) {
          return verifyWith(keys, rawBody, header);
        },
        verifyOrThrow(rawBody, header) {
          return verifyOrThrowWith(keys, rawBody, header);
        },
        async parseWebhook(rawBody, header) {
          return parse(r, toBodyBytes(rawBody), header);
        },
        async handleWebhook(rawBody, header, handler) {
          return handle(r, toBodyBytes(rawBody), header, handler);
        },
      };
    },
    /** For adapters (not exported by the builds): the checks and the claim of one delivery as separate steps. */
    createReceiver(options: { secret: string | readonly string[] } & ParseOptions): Receiver {
      return receiver(prepareAll(options.secret), checkParseOptions(options));
    },
  };
}

/**
 * Gives a claim back after a failure. If that fails too, both errors are thrown together: losing
 * either would hide why the retry is refused or why the delivery failed.
 */
export async function releaseAfterFailure(release: ReleaseClaim, failure: unknown): Promise<void> {
  try {
    await release();
  } catch (releaseError) {
    throw new AggregateError(
      [failure, releaseError],
      'The webhook handler failed and its replay claim could not be released, so the next delivery of this signature will be refused as `replayed` until the claim expires. Check the replay store.',
    );
  }
}
