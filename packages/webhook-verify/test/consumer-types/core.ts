// The root, /fetch and /node entries: typed payloads, kinds and reasons that are unions, the request-level
// pieces a queueing receiver reuses.
import { createServer } from 'node:http';
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
import { createWebhookListener, verifyNodeRequest, writeRejection } from '@forms-api/webhook-verify/node';
import { createPayloadValidator } from '@forms-api/webhook-verify/validate';

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

export const server = createServer(async (req, res) => {
  try {
    const { payload, rawBody, signature, release } = await verifyNodeRequest(req, {
      secret,
      replayStore,
      maxBodyBytes: 65536,
    });
    if (payload.form_id < 0) await release();
    res.end(`${rawBody.length} ${signature}`);
  } catch (error) {
    writeRejection(res, rejectionFor(error));
  }
});

export const listener = createWebhookListener({ secret }, (payload, req, res) => {
  res.end(`${payload.form_title} ${req.webhook.submission_id} ${req.rawBody.length}`);
});
