// downloadSubmissionFile: every documented status on the mock; on live targets a file entry's
// signed URL downloads (200, octet-stream, or a 302 to storage that serves it) and a wrong
// signature is refused (403). Public: no token.
import { OPERATIONS } from '@forms-api/types';
import type { CheckContext } from '../check-context.js';
import { documentedStatusChecks, prismOwnBehaviour, type SendOptions } from './common.js';
import type { OperationSuite } from './types.js';

const operationId = 'downloadSubmissionFile';
const MOCK_FILE = { filename: 'aW52b2ljZS0yMDI0LnBkZg', expires: 1736432123, signature: '3f1c0e7d9a4b2c8e6f5d1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d' };

interface FileRef {
  form: number;
  filename: string;
  expires: number;
  signature: string;
}

export const send = (ctx: CheckContext, o: SendOptions<typeof operationId> & { file?: FileRef } = {}) => {
  const file = o.file ?? { form: ctx.target.ids.formId, ...MOCK_FILE };
  return ctx.send(() =>
    // A public operation: no token unless a check asks for one.
    ctx.client(o.token === undefined ? null : o.token, o.headers).GET(OPERATIONS[operationId].path, {
      params: { path: { form: file.form, filename: file.filename }, query: { expires: file.expires, signature: file.signature } },
      parseAs: 'blob',
    }),
  );
};

/** The signed URL of a file answer among the first page of submissions. */
async function findFile(ctx: CheckContext): Promise<FileRef> {
  const formId = ctx.target.ids.formId;
  const exchange = await ctx.send(() => ctx.client().GET(OPERATIONS.listFormSubmissions.path, { params: { path: { id: formId }, query: { per_page: 100 } } }));
  const text = exchange.responseBody ?? '';
  const match = /"file_url"\s*:\s*"([^"]+)"/.exec(text);
  if (!match) return ctx.skip('no file answer among the latest 100 submissions');
  const url = new URL(JSON.parse(`"${match[1]}"`) as string);
  const filename = url.pathname.split('/').at(-1)!;
  return { form: formId, filename, expires: Number(url.searchParams.get('expires')), signature: url.searchParams.get('signature') ?? '' };
}

export const suite: OperationSuite = {
  operationId,
  checks: [
    ...documentedStatusChecks(operationId, send),
    ...prismOwnBehaviour(operationId, send),
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
        if (!location) return ctx.observe('redirect-without-location', operationId, 'a 302 without a Location header', { expected: 'a Location header', received: 'none', exchange });
        const target = new URL(location, exchange.url);
        const stored = await fetch(target, { redirect: 'manual', signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(20_000)]) }).catch((error: unknown) => error as Error);
        if (stored instanceof Error || stored.status !== 200) {
          ctx.observe('redirect-leads-nowhere', operationId, `the redirect target did not serve the file`, { expected: '200 and the file', received: stored instanceof Error ? stored.message : `status ${stored.status}`, exchange });
        } else {
          await stored.body?.cancel();
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
};
