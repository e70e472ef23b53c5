// The steps every adapter takes for one webhook request, written once: content type, declared
// length, a bounded read of the raw body, then the signature, JSON and payload checks, and last
// the replay claim. Adapters only say how to read their request and how to answer.
import type { SubmissionCreatedPayload } from '@forms-api/types';
import type { ReleaseClaim, Receiver } from './api.js';
import { checkBodyLimits, type BodyLimitOptions, type BodyLimits } from './body-limits.js';
import { isWebhookVerifyError, verificationError, WebhookVerifyError, type BodyReader } from './errors.js';
import { keysOf, refuseUnknownOptions } from '@forms-api/internal/option-names';
import { PARSE_OPTION_NAMES, type ParseOptions } from './options.js';
import { checkDuplicatePolicy, type DuplicatePolicy, type Rejection } from './policy.js';

export { DEFAULT_MAX_BODY_BYTES } from './body-limits.js';

const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;

/** Options of every request-level function and adapter. */
export interface WebhookRequestOptions extends ParseOptions, BodyLimitOptions {
  /** The integration's `webhook_secret`, or several while rotating it. */
  secret: string | readonly string[];
  /** With `replayStore`: answer a duplicate 200 without running the handler (`'acknowledge'`, default) or 409 (`'reject'`). */
  onDuplicate?: DuplicatePolicy;
  /**
   * Told of every request an adapter refuses or cannot take (not a duplicate it acknowledges), with
   * its `{ status, reason, message }` (never the secret, the signature or the body) and the error.
   * Default: one line on stderr when refusals start, then at most one summary a minute by reason; a
   * misconfiguration's fix (a body parser that ran first) is written once. The functions that throw
   * (`verifyNodeRequest`, `verifyFetchRequest`) leave the telling to you.
   */
  onRejected?: (rejection: Rejection, error: unknown) => void;
}

/** A request that passed every check. */
export interface VerifiedWebhook<Body extends Uint8Array = Uint8Array> {
  payload: SubmissionCreatedPayload;
  /** The exact bytes that were verified. */
  rawBody: Body;
  /** The `X-Webhook-Signature` value: the key the replay store claimed. */
  signature: string;
  /** Call it when the delivery could not be processed, so its next arrival is (a no-op without `replayStore`). */
  release: ReleaseClaim;
}

/** One request as an adapter sees it. */
export interface WebhookRequestParts<Body extends Uint8Array> {
  contentType: string | null | undefined;
  contentLength: string | null | undefined;
  signature: unknown;
  /** Reads the raw body within `limits` (through the bounded reader), throwing `body_too_large`, `body_timeout` or `receiver_busy`. */
  readBody(limits: BodyLimits): Promise<ReadBody<Body>>;
}

/** A body as an adapter got it, and who read it: a mismatch then names the likely cause. */
export interface ReadBody<Body extends Uint8Array> {
  bytes: Body;
  readBy: BodyReader;
}

export type RequestVerifier = <Body extends Uint8Array>(
  parts: WebhookRequestParts<Body>,
) => Promise<VerifiedWebhook<Body>>;

const REQUEST_OPTION_NAMES = [
  ...PARSE_OPTION_NAMES,
  ...keysOf<Omit<WebhookRequestOptions, keyof ParseOptions>>({
    secret: true,
    maxBodyBytes: true,
    bodyTimeoutMs: true,
    bodyBudget: true,
    onDuplicate: true,
    onRejected: true,
  }),
];

/**
 * Checks the options once and returns the pipeline for one request at a time. `also`: names an
 * adapter's framework puts in the same object (Fastify's register options).
 */
export function createRequestVerifier(
  createReceiver: (options: WebhookRequestOptions) => Receiver,
  options: WebhookRequestOptions,
  also: readonly string[] = [],
): RequestVerifier {
  if (typeof options !== 'object' || options === null)
    throw new WebhookVerifyError('invalid_option', 'Pass the options object, at least `{ secret }`.', {
      context: { option: 'options' },
    });
  refuseUnknownOptions(WebhookVerifyError, options, [...REQUEST_OPTION_NAMES, ...also], 'webhook-verify');
  const limits = checkBodyLimits(options);
  checkDuplicatePolicy(options.onDuplicate);
  const limit = limits.maxBytes;
  const receiver = createReceiver(options);
  return async (parts) => {
    if (!parts.contentType || !JSON_CONTENT_TYPE.test(parts.contentType))
      throw verificationError('unsupported_content_type', { context: { contentType: parts.contentType } });
    const declared = Number(parts.contentLength);
    if (parts.contentLength && Number.isFinite(declared) && declared > limit)
      throw verificationError('body_too_large', { context: { limit } });
    const { bytes: rawBody, readBy } = await parts.readBody(limits);
    const payload = await receiver.decode(rawBody, parts.signature).catch((error: unknown) => {
      if (isWebhookVerifyError(error) && error.kind === 'signature_mismatch')
        throw verificationError('signature_mismatch', { context: { bodyReadBy: readBy } });
      throw error;
    });
    // decode() accepted the header, so it is the one signature string.
    const signature = parts.signature as string;
    return { payload, rawBody, signature, release: await receiver.claim(signature) };
  };
}

/** Only a 2xx means the delivery was taken; after anything else the claim goes, so the same bytes arriving again are processed. */
export const acknowledges = (status: number): boolean => status >= 200 && status < 300;
