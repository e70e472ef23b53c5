// Test support: submission.created bodies shaped and serialised like the service's, real
// signatures (webhook-verify's signer), and a bounded-concurrency POST runner.
import { sign } from '@forms-api/webhook-verify';

export const SECRET = 'whsec_inbox_test_secret_0123456789';

/** A compact submission.created body, optionally padded (in a field value) to about `size` bytes. */
export function deliveryBody(submissionId: number, size = 0): string {
  const payload = {
    form_id: 11,
    form_title: 'Contact us',
    form_slug: 'contact-us-a1b2c3',
    submission: { Name: `Ada ${submissionId} é/`, Message: '' },
    data: { 'f1a2b3c4-0000-4000-8000-000000000001': { value: `Ada ${submissionId} é/`, name: 'Name', type: 'text' } },
    message: 'Please do not use the `submission` field. It is deprecated and will be removed in the future.',
    submission_id: submissionId,
  };
  const bare = JSON.stringify(payload);
  if (size > bare.length) payload.submission.Message = 'x'.repeat(size - bare.length);
  return JSON.stringify(payload);
}

export interface Signed {
  body: string;
  signature: string;
  submissionId: number;
}

export async function signedDelivery(submissionId: number, size = 0): Promise<Signed> {
  const body = deliveryBody(submissionId, size);
  return { body, signature: await sign(SECRET, body), submissionId };
}

export interface Posted {
  status: number;
  body: { status?: string; id?: string; error?: string; message?: string };
  ms: number;
}

export async function postDelivery(
  url: string,
  delivery: Pick<Signed, 'body' | 'signature'>,
  headers: Record<string, string> = {},
): Promise<Posted> {
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-signature': delivery.signature, ...headers },
      body: delivery.body,
      signal: AbortSignal.timeout(5_000), // the service's budget
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : {}, ms: performance.now() - started };
  } catch (error) {
    // A refused connection or a timeout: the service would record an error event, as for a 503.
    // The cause (ECONNREFUSED, a closed socket…) is what tells a test's failure apart.
    const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause;
    return {
      status: 0,
      body: {
        error: (error as Error).name,
        message: `${(error as Error).message}${cause ? ` (${cause.code ?? cause.message})` : ''}`,
      },
      ms: performance.now() - started,
    };
  }
}

/** Runs `fn` over `items`, at most `concurrency` at a time, keeping the order of results. */
export async function inBatches<T, R>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!, index);
    }
  });
  await Promise.all(lanes);
  return results;
}
