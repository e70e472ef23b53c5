// The one bounded body reader: reads a body from any source of chunks up to a byte limit, then
// fails or keeps the prefix, within an optional deadline, abort signal and reservation of memory.
// Web-standard globals only (no Node import): it runs in browsers, Deno, Bun and workerd too.
import type { Result } from '@forms-api/types';

/** Where a reader's chunks go; after one of `end`/`fail`, or after `stop`, nothing is called. */
export interface ChunkSink {
  chunk(bytes: Uint8Array): void;
  end(): void;
  fail(cause: unknown): void;
}

/** A body reduced to what the reader needs; `webStreamSource` and `nodeStreamSource` make one. */
export interface ChunkSource {
  /** Starts the flow of chunks into `sink`. */
  start(sink: ChunkSink): void;
  /** Called only when reading stops before the end: stop the flow and let go of the rest. */
  stop(): void;
}

/** Bytes taken from a shared allowance as they are kept, all given back when the read settles. */
export interface ByteReservation {
  /** Takes `bytes`: false (and nothing taken) when they do not fit. */
  tryReserve(bytes: number): boolean;
  release(bytes: number): void;
}

export interface BoundedReadOptions {
  /** Most bytes kept (`Infinity` for no limit). */
  limit: number;
  /** Past `limit`: `fail` with `too_large`, or `keep_prefix` (the first `limit` bytes, `exceeded: true`). */
  overLimit: 'fail' | 'keep_prefix';
  /** Time allowed for the whole body from the start of the read, in ms. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Asked before each chunk is kept (the kept part of it); released in full when the read settles. */
  reservation?: ByteReservation;
}

export interface BoundedBody {
  /** The body, or its first `limit` bytes when `exceeded`. */
  bytes: Uint8Array;
  /** The body was longer than the limit; reading stopped there (`keep_prefix` only). */
  exceeded: boolean;
}

/** Why a read ended without the body: a kind for the caller to map to its own error. */
export type BoundedReadFailure =
  | { kind: 'too_large'; limit: number }
  | { kind: 'timeout'; timeoutMs: number }
  | { kind: 'aborted'; reason: unknown }
  | { kind: 'reservation_refused'; bytes: number }
  /** The source failed (a reset connection, a stream error); `received` is what was kept before. */
  | { kind: 'unreadable'; cause: unknown; received: Uint8Array };

export type BoundedReadResult = Result<BoundedBody, BoundedReadFailure>;

/**
 * The one counting rule, shared by the reader and `cappedStream`: how many bytes of a chunk of
 * `size` are kept once `seen` bytes of `limit` were. Fewer than `size` means the body is over.
 */
export function bytesThatFit(seen: number, size: number, limit: number): number {
  return Math.min(size, limit - seen);
}

/**
 * Reads `source` to its end or until a bound stops it. Never rejects: every end is a value. When
 * reading stops early the source is stopped (`ChunkSource.stop`); what becomes of the connection
 * after that is the caller's choice (destroy it, or answer with `Connection: close`).
 */
export function readBounded(source: ChunkSource, options: BoundedReadOptions): Promise<BoundedReadResult> {
  const { limit, overLimit, timeoutMs, signal, reservation } = options;
  return new Promise((resolve) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => stopWith({ ok: false, error: { kind: 'aborted', reason: signal?.reason } });
    const settle = (result: BoundedReadResult) => {
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      reservation?.release(size);
      resolve(result);
    };
    const stopWith = (result: BoundedReadResult) => {
      if (settled) return;
      settle(result);
      source.stop();
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    if (timeoutMs !== undefined && timeoutMs !== Infinity)
      timer = setTimeout(() => stopWith({ ok: false, error: { kind: 'timeout', timeoutMs } }), timeoutMs);
    const sink: ChunkSink = {
      chunk(bytes) {
        if (settled) return;
        const fit = bytesThatFit(size, bytes.byteLength, limit);
        if (fit < bytes.byteLength && overLimit === 'fail')
          return stopWith({ ok: false, error: { kind: 'too_large', limit } });
        const kept = fit < bytes.byteLength ? bytes.subarray(0, fit) : bytes;
        if (reservation && kept.byteLength > 0 && !reservation.tryReserve(kept.byteLength))
          return stopWith({ ok: false, error: { kind: 'reservation_refused', bytes: kept.byteLength } });
        if (kept.byteLength > 0) chunks.push(kept);
        size += kept.byteLength;
        if (kept !== bytes) stopWith({ ok: true, value: { bytes: joined(chunks, size), exceeded: true } });
      },
      end() {
        if (!settled) settle({ ok: true, value: { bytes: joined(chunks, size), exceeded: false } });
      },
      fail(cause) {
        if (!settled) stopWith({ ok: false, error: { kind: 'unreadable', cause, received: joined(chunks, size) } });
      },
    };
    try {
      source.start(sink);
    } catch (cause) {
      sink.fail(cause);
    }
  });
}

/** The failure of a read with no bound but its limit: only the source can end it early. */
export type UnreadableBody = Extract<BoundedReadFailure, { kind: 'unreadable' }>;

/**
 * The first `limit` bytes of `source` (all of it when shorter, `exceeded` when longer): a read
 * with no deadline, signal or reservation, which only the source failing ends without its bytes.
 */
export function readPrefix(source: ChunkSource, limit: number): Promise<Result<BoundedBody, UnreadableBody>> {
  // keep_prefix never fails with too_large, and without the other bounds nothing else stops it.
  return readBounded(source, { limit, overLimit: 'keep_prefix' }) as ReturnType<typeof readPrefix>;
}

/** The chunks as one array; a single chunk is handed back as it is. */
function joined(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.byteLength;
  }
  return all;
}

/** A Web `ReadableStream` as a source: stopping it cancels the stream, which closes a fetch's connection. */
export function webStreamSource(body: ReadableStream<Uint8Array>): ChunkSource {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let stopped = false;
  return {
    start(sink) {
      const open = body.getReader();
      reader = open;
      const pump = async () => {
        for (;;) {
          const { done, value } = await open.read();
          if (stopped) return;
          if (done) return sink.end();
          sink.chunk(value);
        }
      };
      pump().catch((cause: unknown) => {
        if (!stopped) sink.fail(cause);
      });
    },
    stop() {
      stopped = true;
      // Stopped before it started (a signal aborted already): the stream is cancelled all the same.
      (reader ?? body).cancel().catch(() => {});
    },
  };
}

/** What the reader uses of a Node `Readable` (typed here so that this module imports nothing of Node). */
export interface NodeReadableLike {
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  off(event: string, listener: (...args: unknown[]) => void): unknown;
  pause(): unknown;
}

const ignore = () => {};

/**
 * A Node `Readable` as a source. Events rather than `for await`: leaving an async iterator destroys
 * the stream, and with it the socket an answer (a 413) may still be written to. A stopped stream
 * is paused, not drained, and a late error of it is ignored: the caller then destroys it or
 * answers with `Connection: close`, so a peer that stalls or keeps sending loses its connection.
 */
export function nodeStreamSource(stream: NodeReadableLike): ChunkSource {
  let detach = () => {};
  return {
    start(sink) {
      const encoder = new TextEncoder();
      // A Buffer (a Uint8Array), or a string when the stream has an encoding set.
      const onData = (chunk: unknown) =>
        sink.chunk(typeof chunk === 'string' ? encoder.encode(chunk) : (chunk as Uint8Array));
      const onEnd = () => sink.end();
      const onError = (cause: unknown) => sink.fail(cause);
      // After 'end' the reader has settled and ignores this; before it, the body was cut short.
      const onClose = () => sink.fail(new Error('The connection closed before the end of the body.'));
      detach = () => {
        stream.off('data', onData);
        stream.off('end', onEnd);
        stream.off('error', onError);
        stream.off('close', onClose);
      };
      stream.on('data', onData);
      stream.on('end', onEnd);
      stream.on('error', onError);
      stream.on('close', onClose);
    },
    stop() {
      detach();
      // A late error of an abandoned stream must not become an unhandled 'error' event.
      stream.on('error', ignore);
      stream.pause();
    },
  };
}

/**
 * `body` passed through as it arrives, counted by the same rule as `readBounded`: past `limit`
 * bytes the stream errors with `overLimit()`, which cancels `body` (closing its connection). For a
 * reader that takes a stream rather than bytes (openapi-fetch, a download handed to the caller).
 */
export function cappedStream(
  body: ReadableStream<Uint8Array>,
  limit: number,
  overLimit: () => unknown,
): ReadableStream<Uint8Array> {
  let seen = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (bytesThatFit(seen, chunk.byteLength, limit) < chunk.byteLength) return controller.error(overLimit());
        seen += chunk.byteLength;
        controller.enqueue(chunk);
      },
    }),
  );
}
