// A TypeScript user of the root, /web, /fetch and /validate entries (which need no @types/node):
// typed payloads, kinds and reasons that are unions, the request-level pieces a queueing receiver
// reuses. The /node, /express and /fastify entries: node/webhook-verify.*.ts.
import {
  MemoryReplayStore,
  isWebhookVerifyError,
  handleWebhook,
  parseWebhook,
  rejectionBody,
  rejectionFor,
  type RejectionBody,
  type RejectionReason,
  type ReplayStore,
  type SubmissionCreatedPayload,
} from '@forms-api/webhook-verify';
import {
  rejectionResponse,
  verifyFetchRequest,
  verifyWebhookRequest,
  webhookHandler,
} from '@forms-api/webhook-verify/fetch';
import { createPayloadValidator } from '@forms-api/webhook-verify/validate';
import { parseWebhook as parseOnTheWeb } from '@forms-api/webhook-verify/web';

const secret = 'whsec_1234567890ab';
const replayStore: ReplayStore = new MemoryReplayStore();

export async function direct(raw: Uint8Array, header: string | null): Promise<number> {
  const payload: SubmissionCreatedPayload = await parseWebhook(secret, raw, header, {
    validate: createPayloadValidator(),
    replayStore,
  });
  const handled: string = await handleWebhook(secret, raw, header, (p) => p.form_title, { replayStore });
  return payload.submission_id + handled.length;
}

export function reasons(error: unknown): RejectionReason {
  const rejection = rejectionFor(error);
  const body: RejectionBody = rejectionBody(rejection);
  // @ts-expect-error a reason is one of the union, not any string
  const wrong: RejectionReason = 'bad_signature';
  if (isWebhookVerifyError(error)) {
    // @ts-expect-error a kind is one of the union, not any string
    if (error.kind === 'bad_signature') return wrong;
    // @ts-expect-error the context is read-only
    error.context.limit = 1;
  }
  if (isWebhookVerifyError(error) && error.kind === 'replayed') return 'replayed';
  // @ts-expect-error an acknowledged duplicate's body has `status`, not `error`: narrow first
  void body.error;
  return 'error' in body ? body.error : rejection.reason;
}

export const fetchHandler = webhookHandler({ secret, replayStore }, (payload) => new Response(payload.form_title));

export async function queueing(request: Request): Promise<Response> {
  const result = await verifyWebhookRequest(request, { secret });
  if (!result.ok) return result.response;
  try {
    const { payload, rawBody, signature } = await verifyFetchRequest(request.clone(), { secret, replayStore });
    return new Response(`${payload.form_title} ${rawBody.byteLength} ${signature}`);
  } catch (error) {
    return rejectionResponse(rejectionFor(error));
  }
}

// The /web entry is the root's verifier without Node's helpers: the same typed function.
export const parseAnywhere: typeof parseWebhook = parseOnTheWeb;
