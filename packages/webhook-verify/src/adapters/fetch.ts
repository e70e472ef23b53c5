// Fetch API adapter (Hono, Next.js route handlers, Cloudflare Workers, Deno, Bun), written once
// over an API build: reads the request body once as bytes, verifies it, and either returns the
// payload or a ready Response. fetch-node.ts and fetch-web.ts bind it to each build.
import type { SubmissionCreatedPayload } from '@forms-api/types';
import type { Receiver } from '../core/api.js';
import { releaseAfterFailure } from '../core/api.js';
import { SIGNATURE_HEADER } from '../core/header.js';
import { rejectionBody, rejectionFor, rejectionHeaders, type Rejection } from '../core/policy.js';
import { rejectionReporter } from '../core/rejection-log.js';
import {
  acknowledges,
  createRequestVerifier,
  type VerifiedWebhook,
  type WebhookRequestOptions,
} from '../core/request.js';
import { readRequestBody } from './fetch-body.js';

export type FetchWebhookOptions = WebhookRequestOptions;

export type FetchWebhookResult =
  ({ ok: true } & VerifiedWebhook<Uint8Array>) | ({ ok: false; error: unknown; response: Response } & Rejection);

/** A rejection as the shared `{ error, message }` JSON `Response`. */
export function rejectionResponse(rejection: Rejection): Response {
  return new Response(JSON.stringify(rejectionBody(rejection)), {
    status: rejection.status,
    headers: rejectionHeaders(rejection),
  });
}

export function createFetchAdapter(createReceiver: (options: WebhookRequestOptions) => Receiver) {
  const requestVerifier = (options: FetchWebhookOptions) => {
    const verify = createRequestVerifier(createReceiver, options);
    return (request: Request) =>
      verify({
        contentType: request.headers.get('content-type'),
        contentLength: request.headers.get('content-length'),
        signature: request.headers.get(SIGNATURE_HEADER),
        readBody: (limits) => readRequestBody(request, limits),
      });
  };

  // Answers a rejection as a Response; a 500 is thrown for the framework's error handling, and
  // every rejection but an internal error (which the framework has) is reported.
  const resultOf = (options: FetchWebhookOptions) => {
    const report = rejectionReporter(options);
    return async (pending: Promise<VerifiedWebhook<Uint8Array>>): Promise<FetchWebhookResult> => {
      try {
        return { ok: true, ...(await pending) };
      } catch (error) {
        const rejection = rejectionFor(error, options);
        if (rejection.reason !== 'internal_error') report(rejection, error);
        if (rejection.status === 500) throw error;
        return { ok: false, error, response: rejectionResponse(rejection), ...rejection };
      }
    };
  };

  return {
    /**
     * Checks the content type, reads the body within `maxBodyBytes`, verifies the signature and
     * parses and validates the payload; with `replayStore` it then claims the delivery. Throws a
     * `WebhookVerifyError` (answer it with `rejectionFor` and `rejectionResponse`); call
     * `release()` if the delivery is not processed.
     */
    verifyFetchRequest(request: Request, options: FetchWebhookOptions): Promise<VerifiedWebhook<Uint8Array>> {
      return requestVerifier(options)(request);
    },

    /**
     * Verifies a webhook `Request`. Never throws for a bad request: it returns `{ ok: false,
     * response }`. Throws a `WebhookVerifyError` of a misuse kind (a body already read, a bad
     * option).
     */
    verifyWebhookRequest(request: Request, options: FetchWebhookOptions): Promise<FetchWebhookResult> {
      return resultOf(options)(requestVerifier(options)(request));
    },

    /**
     * Wraps a handler so it only ever sees verified payloads; rejections are answered for it. With
     * `replayStore`, the claim is given back when the handler throws or answers other than 2xx.
     */
    webhookHandler(
      options: FetchWebhookOptions,
      handle: (payload: SubmissionCreatedPayload, request: Request) => Response | Promise<Response>,
    ): (request: Request) => Promise<Response> {
      const verify = requestVerifier(options);
      const toResult = resultOf(options);
      return async (request) => {
        const result = await toResult(verify(request));
        if (!result.ok) return result.response;
        let response: Response;
        try {
          response = await handle(result.payload, request);
        } catch (error) {
          await releaseAfterFailure(result.release, error);
          throw error;
        }
        if (!acknowledges(response.status)) await result.release();
        return response;
      };
    },
  };
}
