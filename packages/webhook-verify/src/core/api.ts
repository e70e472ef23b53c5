// The shared behaviour of every build: sign, verify, verifyOrThrow, parseWebhook and
// createVerifier, written once over an HMAC backend (node:crypto or Web Crypto).
import type { SubmissionCreatedPayload } from '@forms-api/types';
import type { HmacBackend, PreparedKey } from '../crypto/backend.js';
import type { ReplayStore } from '../replay.js';
import { toBodyBytes, type RawBody } from './body.js';
import { WebhookVerificationError, type WebhookVerificationReason } from './errors.js';
import { formatSignatureHeader, parseSignatureHeader } from './header.js';
import { assertSecret, normaliseSecrets } from './secret.js';

/** Checks a parsed payload; returns the problems found (empty when valid). */
export type PayloadValidator = (payload: unknown) => readonly string[];

export interface ParseOptions {
  /** Validate the payload against the submission.created schema (see `@forms-api/webhook-verify/validate`). */
  validate?: PayloadValidator;
  /** Refuse a signature already accepted within `replayTtlMs`. */
  replayStore?: ReplayStore;
  /** How long an accepted signature is remembered. Default 24 hours. */
  replayTtlMs?: number;
}

export interface Verifier {
  sign(rawBody: RawBody): Promise<string>;
  verify(rawBody: RawBody, signatureHeader: string | null | undefined): Promise<boolean>;
  verifyOrThrow(rawBody: RawBody, signatureHeader: string | null | undefined): Promise<void>;
  parseWebhook(rawBody: RawBody, signatureHeader: string | null | undefined): Promise<SubmissionCreatedPayload>;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const decoder = new TextDecoder();

export function createWebhookApi(backend: HmacBackend) {
  type Outcome = WebhookVerificationReason | null;

  /**
   * Checks every key (not stopping at the first match) so timing does not tell which secret
   * matched. Synchronous when the backend is (node:crypto), so the Node build pays for no extra
   * promise per verification.
   */
  function check(keys: readonly PreparedKey[], body: Uint8Array, header: unknown): Outcome | Promise<Outcome> {
    const parsed = parseSignatureHeader(header);
    if (!parsed.ok) return parsed.reason;
    if (keys.length === 1) {
      const result = keys[0]!.verify(body, parsed.hex);
      return typeof result === 'boolean' ? (result ? null : 'signature_mismatch') : result.then((ok) => (ok ? null : 'signature_mismatch'));
    }
    const results = keys.map((key) => key.verify(body, parsed.hex));
    if (results.every((r): r is boolean => typeof r === 'boolean')) return results.includes(true) ? null : 'signature_mismatch';
    return Promise.all(results).then((all) => (all.includes(true) ? null : 'signature_mismatch'));
  }

  async function parse(keys: readonly PreparedKey[], body: Uint8Array, header: string | null | undefined, options: ParseOptions): Promise<SubmissionCreatedPayload> {
    const reason = await check(keys, body, header);
    if (reason) throw new WebhookVerificationError(reason);
    if (options.replayStore && (await options.replayStore.seen(header as string, options.replayTtlMs ?? DAY_MS))) {
      throw new WebhookVerificationError('replayed');
    }
    let payload: unknown;
    try {
      payload = JSON.parse(decoder.decode(body));
    } catch (cause) {
      throw new WebhookVerificationError('invalid_json', { cause });
    }
    if (options.validate) {
      const problems = options.validate(payload);
      if (problems.length > 0) throw new WebhookVerificationError('invalid_payload', { details: problems });
    }
    return payload as SubmissionCreatedPayload;
  }

  const prepareAll = (secret: string | readonly string[]) => normaliseSecrets(secret).map((s) => backend.prepare(s));

  return {
    /** Returns the `X-Webhook-Signature` value for a body: `sha256=<lowercase hex>`. */
    async sign(secret: string, rawBody: RawBody): Promise<string> {
      assertSecret(secret);
      return formatSignatureHeader(await backend.prepare(secret).sign(toBodyBytes(rawBody)));
    },
    /** True when the header is a valid signature of the raw body under any of the secrets. */
    async verify(secret: string | readonly string[], rawBody: RawBody, signatureHeader: string | null | undefined): Promise<boolean> {
      const keys = prepareAll(secret);
      return (await check(keys, toBodyBytes(rawBody), signatureHeader)) === null;
    },
    /** Like `verify`, but throws a `WebhookVerificationError` saying why and what to do. */
    async verifyOrThrow(secret: string | readonly string[], rawBody: RawBody, signatureHeader: string | null | undefined): Promise<void> {
      const keys = prepareAll(secret);
      const reason = await check(keys, toBodyBytes(rawBody), signatureHeader);
      if (reason) throw new WebhookVerificationError(reason);
    },
    /** Verifies, then returns the parsed `submission.created` payload (optionally validated and replay-checked). */
    async parseWebhook(
      secret: string | readonly string[],
      rawBody: RawBody,
      signatureHeader: string | null | undefined,
      options: ParseOptions = {},
    ): Promise<SubmissionCreatedPayload> {
      return parse(prepareAll(secret), toBodyBytes(rawBody), signatureHeader, options);
    },
    /** A verifier bound to its secrets: keys are prepared once (imported once with Web Crypto). */
    createVerifier(options: { secret: string | readonly string[] } & ParseOptions): Verifier {
      const keys = prepareAll(options.secret);
      return {
        async sign(rawBody) {
          return formatSignatureHeader(await keys[0]!.sign(toBodyBytes(rawBody)));
        },
        async verify(rawBody, header) {
          return (await check(keys, toBodyBytes(rawBody), header)) === null;
        },
        async verifyOrThrow(rawBody, header) {
          const reason = await check(keys, toBodyBytes(rawBody), header);
          if (reason) throw new WebhookVerificationError(reason);
        },
        async parseWebhook(rawBody, header) {
          return parse(keys, toBodyBytes(rawBody), header, options);
        },
      };
    },
  };
}
