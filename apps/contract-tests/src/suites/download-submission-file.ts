// downloadSubmissionFile beyond the derived checks: its request is a signed URL, which the spec
// cannot fill. On live targets a file entry's signed URL downloads (200, octet-stream, or a 302 to
// storage that serves it: its happy path) and a wrong signature is refused (403).
import { request as httpsRequest } from 'node:https';
import { pinnedLookup } from '@forms-api/internal/pinned-lookup';
import { checkWebhookUrl, type WebhookDestination } from '@forms-api/sandbox';
import { OPERATIONS } from '@forms-api/types';
import type { CheckContext } from '../check-context.js';
import { createHttpClient, ExchangeRecorder } from '../targets/http-client.js';
import { REQUEST_TIMEOUT_MS } from '../targets/limits.js';
import { handSuite, operationSender, type SendOptions } from './common.js';

const operationId = 'downloadSubmissionFile';
const MOCK_FILE = {
  filename: 'aW52b2ljZS0yMDI0LnBkZg',
  expires: 1736432123,
  signature: '3f1c0e7d9a4b2c8e6f5d1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d',
};

interface FileRef {
  form: number;
  filename: string;
  expires: number;
  signature: string;
}

const sendAny = operationSender(operationId);

/** The download of `file` (by default the spec's example file of the target's form). */
const send = (ctx: CheckContext, o: SendOptions<typeof operationId> & { file?: FileRef } = {}) => {
  const { file: given, ...options } = o;
  const file = given ?? { form: ctx.target.ids.formId, ...MOCK_FILE };
  return sendAny(ctx, {
    ...options,
    path: { form: file.form, filename: file.filename },
    query: { expires: file.expires, signature: file.signature },
  });
};

/** The signed URL of a file answer among the first page of submissions. */
async function findFile(ctx: CheckContext): Promise<FileRef> {
  const formId = ctx.target.ids.formId;
  const exchange = await ctx.send(() =>
    ctx
      .client()
      .GET(OPERATIONS.listFormSubmissions.path, { params: { path: { id: formId }, query: { per_page: 100 } } }),
  );
  const text = exchange.responseBody ?? '';
  const match = /"file_url"\s*:\s*"([^"]+)"/.exec(text);
  if (!match) return ctx.skip('no file answer among the latest 100 submissions');
  const url = new URL(JSON.parse(`"${match[1]}"`) as string);
  const filename = url.pathname.split('/').at(-1)!;
  return {
    form: formId,
    filename,
    expires: Number(url.searchParams.get('expires')),
    signature: url.searchParams.get('signature') ?? '',
  };
}

type Reached =
  { kind: 'status'; status: number } | { kind: 'error'; message: string } | { kind: 'not-followed'; reason: string };

/**
 * Requests the target of the download's redirect (issue 20 #3: a tenant's Location once sent the
 * suite to a cloud metadata address from CI). Followed only to the tenant's own origin, or to an
 * https host whose every address is public, connecting to the address that was checked (the
 * sandbox's SSRF guard, so DNS cannot answer differently in between). Never a second hop.
 */
async function followRedirect(ctx: CheckContext, target: URL): Promise<Reached> {
  if (target.origin === new URL(ctx.target.baseUrl).origin) {
    // The tenant's own host: through the suite's client without a token, like every other request
    // to it (the target's pacer, the client's timeout); the body is not read.
    const recorder = new ExchangeRecorder();
    const client = createHttpClient({
      baseUrl: target.origin,
      recorder,
      ...(ctx.target.pacer ? { pacer: ctx.target.pacer } : {}),
      ...(ctx.target.traffic ? { traffic: ctx.target.traffic } : {}),
    });
    const get = client.GET as (path: string, init: object) => Promise<{ response: Response }>;
    const { answer: stored, thrown } = await recorder.answer(ctx.target.pacer !== undefined, () =>
      get(`${target.pathname}${target.search}`, { parseAs: 'stream', signal: ctx.signal }).then(({ response }) =>
        response.body?.cancel(),
      ),
    );
    if (stored?.status === undefined)
      return {
        kind: 'error',
        message: stored?.transportError ?? (thrown instanceof Error ? thrown.message : 'no request'),
      };
    return { kind: 'status', status: stored.status };
  }
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]);
  const checked = await checkWebhookUrl(target.href, { allowPrivate: false });
  if (!checked.ok)
    return {
      kind: 'not-followed',
      reason: `off the tenant's origin, only public https is followed (${checked.error.replace(/^The webhook URL/, 'the URL')})`,
    };
  return pinnedStatus(checked.value, signal);
}

/** The status of a GET to a checked destination, connecting only to its pinned address; the body is not read. */
function pinnedStatus(destination: WebhookDestination, signal: AbortSignal): Promise<Reached> {
  const lookup = pinnedLookup(destination.pinned!);
  return new Promise((resolve) => {
    const req = httpsRequest(destination.url, { method: 'GET', lookup, signal }, (res) => {
      resolve({ kind: 'status', status: res.statusCode ?? 0 });
      res.destroy();
    });
    req.on('error', (error) => resolve({ kind: 'error', message: error.message }));
    req.end();
  });
}

export const suite = handSuite({
  operationId,
  send,
  // Its happy path is the signed URL check; an unknown file's URL carries no valid signature.
  happyPath: false,
  unknown: false,
  checks: [
    {
      name: 'signed URL: the file, or a redirect to it',
      operationId,
      on: 'live',
      async run(ctx) {
        const exchange = await send(ctx, { file: await findFile(ctx) });
        ctx.expectResponse(exchange, { operationId, status: [200, 302] });
        if (exchange.status !== 302) return;
        // The documented redirect leads to storage, outside the API: the file must be there, without a token.
        const location = exchange.responseHeaders?.location;
        if (!location)
          return ctx.observe('redirect-without-location', operationId, 'a 302 without a Location header', {
            expected: 'a Location header',
            received: 'none',
            exchange,
          });
        let target: URL;
        try {
          target = new URL(location, exchange.url);
        } catch {
          return ctx.observe('redirect-leads-nowhere', operationId, 'the Location is not a URL', {
            expected: 'a URL to the file',
            received: ctx.excerpt(location),
            exchange,
          });
        }
        const reached = await followRedirect(ctx, target);
        if (reached.kind === 'not-followed') {
          // Judged by its form only: the suite never sends a request a tenant aims at a private host.
          ctx.notes.push({
            label: 'redirect not followed',
            message: `the redirect leads to ${ctx.excerpt(target.origin, 120)}, not followed: ${reached.reason}`,
            failure: {
              kind: 'behaviour',
              operationId,
              message: 'redirect not followed',
              received: ctx.excerpt(target.href, 300),
              exchange,
            },
          });
        } else if (reached.kind === 'error' || reached.status !== 200) {
          ctx.observe('redirect-leads-nowhere', operationId, `the redirect target did not serve the file`, {
            expected: '200 and the file',
            received: reached.kind === 'error' ? reached.message : `status ${reached.status}`,
            exchange,
          });
        }
      },
    },
    {
      name: 'wrong signature: 403',
      operationId,
      on: 'live',
      async run(ctx) {
        const file = await findFile(ctx);
        const signature = file.signature.startsWith('0') ? 'f'.repeat(64) : '0'.repeat(64);
        ctx.expectResponse(await send(ctx, { file: { ...file, signature } }), { operationId, status: 403 });
      },
    },
  ],
});
