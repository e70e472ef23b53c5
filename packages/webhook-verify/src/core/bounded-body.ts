// The one bounded body reader behind every adapter: it stops at the size limit, at the read
// deadline, and when the process's budget of unverified bytes is spent, whatever the source.
import { WebhookVerifyError } from './errors.js';
import type { BodyLimits } from './body-limits.js';

/** Where the bytes come from: a Node stream or a Fetch body, reduced to what the reader needs. */
export interface ChunkSource {
  /** Starts the flow of chunks; exactly the callbacks of one read are called until `stop`. */
  start(sink: { chunk(bytes: Uint8Array): void; end(): void; fail(cause: unknown): void }): void;
  /** Stops the flow and lets go of the rest (the adapter decides whether the connection survives). */
  stop(): void;
}

export function readBounded(source: ChunkSource, limits: BodyLimits): Promise<Uint8Array> {
  const { maxBytes, timeoutMs, budget } = limits;
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    let settled = false;
    const timer = setTimeout(() => fail(new WebhookVerifyError('body_timeout', { context: { timeoutMs } })), timeoutMs);
    const finish = () => {
      settled = true;
      clearTimeout(timer);
      budget.release(size);
    };
    const fail = (error: WebhookVerifyError) => {
      if (settled) return;
      finish();
      source.stop();
      reject(error);
    };
    source.start({
      chunk(bytes) {
        if (settled) return;
        if (size + bytes.byteLength > maxBytes)
          return fail(new WebhookVerifyError('body_too_large', { context: { limit: maxBytes } }));
        if (!budget.tryReserve(bytes.byteLength))
          return fail(
            new WebhookVerifyError('receiver_busy', { context: { retryAfterSeconds: Math.ceil(timeoutMs / 1000) } }),
          );
        size += bytes.byteLength;
        chunks.push(bytes);
      },
      end() {
        if (settled) return;
        finish();
        resolve(concat(chunks, size));
      },
      fail(cause) {
        fail(new WebhookVerifyError('unreadable_body', { cause }));
      },
    });
  });
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
