// The one place that talks to @forms-api/webhook-verify: checking the secret, and verifying a Node,
// Fetch or Fastify request (content type, bounded raw body, signature, JSON) with its rejection
// policy (401/400/413/415). Every adapter goes through here, so a change of that API stays here.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { createVerifier, isWebhookVerifyError, rejectionFor, SIGNATURE_HEADER } from '@forms-api/webhook-verify';
import { webhookVerify, type FastifyWebhookRequest } from '@forms-api/webhook-verify/fastify';
import { verifyWebhookRequest } from '@forms-api/webhook-verify/fetch';
import { verifyNodeRequest, writeRejection } from '@forms-api/webhook-verify/node';
import { flattenHeaders, submissionKeyFor, type VerifiedDelivery } from './delivery.js';
import { InboxError } from './errors.js';
import type { InboxRejection } from './rejection-log.js';
import { recordRejected } from './telemetry/metrics.js';
import { markFastifyRejected, traceFastifyScope } from './telemetry/fastify-tracing.js';
import { markRejected, traceVerify } from './telemetry/tracing.js';

export type { ReplayStore } from '@forms-api/webhook-verify';

/** How receivers verify, carried by the inbox under a registry symbol (the same in ESM and CJS builds). */
export const RECEIVE_CONFIG: unique symbol = Symbol.for('@forms-api/webhook-inbox/receive-config') as never;

export interface ReceiveConfig {
  secret: string | readonly string[];
  maxBodyBytes: number | undefined;
  /** The inbox's queue name, the label of its rejection metrics. */
  queue: string;
  /** The inbox's `onRejected` (by default its rejection log). */
  onRejected: (rejection: InboxRejection) => void;
}

/** Counts a refusal and tells the inbox's `onRejected`. */
function refused(config: ReceiveConfig, rejection: InboxRejection): void {
  recordRejected(config.queue, rejection.reason);
  config.onRejected(rejection);
}

/** Fails at start-up, with webhook-verify's own message, on an empty or padded secret. */
export function assertSecret(secret: string | readonly string[]): void {
  createVerifier({ secret });
}

/**
 * The worker's check of a job's stored bytes against the secret(s): resolves when the stored
 * signature header still verifies the stored bytes, rejects with `signature_rejected` otherwise
 * (the bytes or the header were changed in Redis, or were signed with a secret not given here).
 */
export function storedBytesVerifier(secret: string | readonly string[]) {
  const verifier = createVerifier({ secret });
  return async (jobId: string, rawBody: Uint8Array, headers: Readonly<Record<string, string>>): Promise<void> => {
    try {
      await verifier.verifyOrThrow(rawBody, headers[SIGNATURE_HEADER]);
    } catch (error) {
      const reason = isWebhookVerifyError(error) ? error.kind : 'invalid';
      throw new InboxError(
        'signature_rejected',
        `Job ${jobId}'s stored bytes do not verify against the worker's \`secret\` (${reason}), so the handler was not run: they were changed in Redis after a receiver verified them, or were signed with a secret this worker was not given (while rotating, give the worker every secret the receivers accept, then \`forms-webhook-inbox retry ${jobId}\`).`,
        { context: { jobId, reason } },
      );
    }
  };
}

// webhook-verify reads an undefined maxBodyBytes as its default (1 MiB). Its adapters' own report of
// a refusal is switched off: the inbox counts and tells each one itself (`refused`), once.
const verifyOptions = (config: ReceiveConfig) => ({
  secret: config.secret,
  maxBodyBytes: config.maxBodyBytes,
  onRejected: () => {},
});

/**
 * Verifies a Node request (the raw stream, or the Buffer `express.raw()` left): the delivery, or
 * undefined once a rejection was answered with webhook-verify's `{ error, message }` JSON. A
 * misconfiguration (a JSON parser that consumed the body) is thrown, for the framework's 500.
 */
export async function verifyNode(
  req: IncomingMessage,
  res: ServerResponse,
  config: ReceiveConfig,
): Promise<VerifiedDelivery | undefined> {
  try {
    const { rawBody, signature, payload } = await traceVerify(() => verifyNodeRequest(req, verifyOptions(config)));
    return { rawBody, signature, headers: flattenHeaders(req.headers), submissionKey: submissionKeyFor(payload) };
  } catch (error) {
    const rejection = rejectionFor(error);
    // A misconfiguration webhook-verify names (a body parser ran first) is answered here, as JSON
    // with its fix, and told once on the log: handed to Express, it became an HTML page with a stack
    // trace that the service stores in its event log. Only an unexpected error goes on to `next`.
    if (rejection.status === 500 && !isWebhookVerifyError(error)) throw error;
    refused(config, rejection);
    markRejected(rejection.reason, error);
    writeRejection(res, rejection);
    return undefined;
  }
}

/** Answers an error no one else handled with webhook-verify's 500 body (a misuse names its fix). */
export function writeFailure(res: ServerResponse, error: unknown): void {
  writeRejection(res, rejectionFor(error));
}

export type FetchVerification = { ok: true; delivery: VerifiedDelivery } | { ok: false; response: Response };

export async function verifyFetch(request: Request, config: ReceiveConfig): Promise<FetchVerification> {
  const result = await traceVerify(() => verifyWebhookRequest(request, verifyOptions(config)));
  if (!result.ok) {
    refused(config, {
      reason: result.reason,
      status: result.response.status,
      message: rejectionFor(result.error).message,
    });
    markRejected(result.reason, result.error);
    return { ok: false, response: result.response };
  }
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return {
    ok: true,
    delivery: {
      rawBody: result.rawBody,
      signature: result.signature,
      headers,
      submissionKey: submissionKeyFor(result.payload),
    },
  };
}

/**
 * Makes the scope hand bodies over unread and verify them in a preHandler that answers rejections;
 * handlers then read the delivery (the raw bytes are left in `request.body`) with `fastifyDelivery`.
 */
export async function registerFastifyVerification(scope: FastifyInstance, config: ReceiveConfig): Promise<void> {
  traceFastifyScope(scope, config.queue);
  await scope.register(webhookVerify, verifyOptions(config));
  // webhook-verify's preHandler answers rejections itself: count them from their `{ error }` body.
  scope.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode >= 400 && reply.statusCode < 500 && typeof payload === 'string') {
      const { reason, message } = rejectionOf(payload, reply.statusCode);
      refused(config, { reason, status: reply.statusCode, message });
      markFastifyRejected(request, reason);
    }
    return payload;
  });
}

function rejectionOf(body: string, status: number): { reason: string; message: string } {
  try {
    const { error, message } = JSON.parse(body) as { error?: unknown; message?: unknown };
    if (typeof error === 'string') return { reason: error, message: typeof message === 'string' ? message : '' };
  } catch {
    // not webhook-verify's JSON: counted by status below
  }
  return { reason: `http_${status}`, message: `answered ${status} by the application` };
}

export function fastifyDelivery(request: FastifyWebhookRequest): VerifiedDelivery {
  return {
    rawBody: request.body,
    signature: request.headers[SIGNATURE_HEADER] as string,
    headers: flattenHeaders(request.headers),
    submissionKey: submissionKeyFor(request.webhook),
  };
}

/** The verification settings of an inbox made by `createInbox`. */
export function receiveConfigOf(inbox: object): ReceiveConfig {
  const config = (inbox as { [RECEIVE_CONFIG]?: ReceiveConfig })[RECEIVE_CONFIG];
  if (!config)
    throw new InboxError(
      'invalid_option',
      'Pass the inbox returned by createInbox() from @forms-api/webhook-inbox: it carries the secret the receiver verifies with.',
    );
  return config;
}
