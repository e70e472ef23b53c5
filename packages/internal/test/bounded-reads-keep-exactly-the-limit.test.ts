// The bounded body reader, over any chunking of any body and any limit, from a Web stream and from
// a Node stream: the bytes are the body or its first `limit` bytes, `exceeded` says which, the
// source is stopped when reading stops early, deadlines and signals end a stalled read, and the
// reservation sees every kept byte and gets all of them back.
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cappedStream,
  nodeStreamSource,
  readBounded,
  readPrefix,
  webStreamSource,
  type BoundedReadResult,
  type ByteReservation,
  type ChunkSource,
} from '../src/bounded-body.js';

/** A body cut into chunks at arbitrary points (empty chunks included). */
const chunkedBody = fc
  .tuple(fc.uint8Array({ maxLength: 400 }), fc.array(fc.nat({ max: 400 }), { maxLength: 12 }))
  .map(([body, cuts]) => {
    const points = [...cuts.map((cut) => cut % (body.length + 1)), body.length].sort((a, b) => a - b);
    const chunks: Uint8Array[] = [];
    let from = 0;
    for (const to of points) {
      chunks.push(body.slice(from, to));
      from = to;
    }
    return { body, chunks };
  });
const limit = fc.oneof(fc.nat({ max: 450 }), fc.constant(Infinity));
const overLimit = fc.constantFrom('fail' as const, 'keep_prefix' as const);

/** A pull stream of `chunks` that records how many were pulled and whether it was cancelled. */
function webBody(chunks: readonly Uint8Array[], options: { failAfter?: number } = {}) {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (options.failAfter === state.pulled) return controller.error(new Error('connection reset'));
        if (state.pulled === chunks.length) return controller.close();
        controller.enqueue(chunks[state.pulled++]!.slice());
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

/** A Node stream that pushes `chunks` when read, then ends (a Node stream never emits an empty chunk). */
function nodeBody(all: readonly Uint8Array[]) {
  const chunks = all.filter((chunk) => chunk.length > 0);
  let next = 0;
  return new Readable({
    read() {
      this.push(next < chunks.length ? Buffer.from(chunks[next++]!) : null);
    },
  });
}

function expectBodyRead(result: BoundedReadResult, body: Uint8Array, max: number, mode: 'fail' | 'keep_prefix') {
  const over = body.length > max;
  if (over && mode === 'fail') {
    expect(result).toEqual({ ok: false, error: { kind: 'too_large', limit: max } });
    return;
  }
  if (!result.ok) throw new Error(`expected the body, got ${result.error.kind}`);
  expect(Buffer.from(result.value.bytes).equals(Buffer.from(body.subarray(0, max)))).toBe(true);
  expect(result.value.exceeded).toBe(over);
}

/** Records every reservation; refuses past `capacity`. */
function recordingReservation(capacity = Infinity) {
  const log = { held: 0, reserved: 0, released: 0, refusals: 0 };
  const reservation: ByteReservation = {
    tryReserve(bytes) {
      if (log.held + bytes > capacity) {
        log.refusals++;
        return false;
      }
      log.held += bytes;
      log.reserved += bytes;
      return true;
    },
    release(bytes) {
      log.held -= bytes;
      log.released += bytes;
    },
  };
  return { reservation, log };
}

/** A source that starts and never sends anything, recording `stop`. */
function stalledSource() {
  const state = { started: false, stopped: false };
  const source: ChunkSource = {
    start: () => void (state.started = true),
    stop: () => void (state.stopped = true),
  };
  return { source, state };
}

describe('readBounded', () => {
  it('keeps exactly the body or its first `limit` bytes from a Web stream, and cancels it iff it is longer', async () => {
    await fc.assert(
      fc.asyncProperty(chunkedBody, limit, overLimit, async ({ body, chunks }, max, mode) => {
        const { stream, state } = webBody(chunks);
        const result = await readBounded(webStreamSource(stream), { limit: max, overLimit: mode });
        expectBodyRead(result, body, max, mode);
        expect(state.cancelled).toBe(body.length > max);
        // Reading stopped at the chunk that crossed the limit: nothing after it was asked for.
        if (body.length > max) {
          let seen = 0;
          const crossing = chunks.findIndex((chunk) => (seen += chunk.length) > max);
          expect(state.pulled).toBe(crossing + 1);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps exactly the body or its first `limit` bytes from a Node stream, and stops it iff it is longer', async () => {
    await fc.assert(
      fc.asyncProperty(chunkedBody, limit, overLimit, async ({ body, chunks }, max, mode) => {
        const stream = nodeBody(chunks);
        const result = await readBounded(nodeStreamSource(stream), { limit: max, overLimit: mode });
        expectBodyRead(result, body, max, mode);
        // A stopped stream is paused with no reader left on it, and takes a late error quietly.
        expect(stream.isPaused()).toBe(body.length > max);
        expect(stream.listenerCount('data')).toBe(body.length > max ? 0 : 1);
        if (body.length > max) stream.destroy(new Error('late'));
      }),
      { numRuns: 300 },
    );
  });

  it('reads string chunks of a Node stream as their UTF-8 bytes', async () => {
    const stream = Readable.from(['hé', 'llo'], { objectMode: true });
    const result = await readBounded(nodeStreamSource(stream), { limit: 100, overLimit: 'fail' });
    expect(result.ok && new TextDecoder().decode(result.value.bytes)).toBe('héllo');
  });

  it('has the reservation see every byte kept, refuses when it is spent, and gets every byte back', async () => {
    await fc.assert(
      fc.asyncProperty(
        chunkedBody,
        limit,
        overLimit,
        fc.oneof(fc.nat({ max: 450 }), fc.constant(Infinity)),
        async ({ body, chunks }, max, mode, capacity) => {
          const { reservation, log } = recordingReservation(capacity);
          const { stream, state } = webBody(chunks);
          const result = await readBounded(webStreamSource(stream), { limit: max, overLimit: mode, reservation });
          expect(log.held).toBe(0);
          expect(log.released).toBe(log.reserved);
          if (result.ok) {
            expect(log.reserved).toBe(result.value.bytes.length);
            expectBodyRead(result, body, max, mode);
          } else if (result.error.kind === 'reservation_refused') {
            expect(log.refusals).toBe(1);
            expect(log.reserved + result.error.bytes).toBeGreaterThan(capacity);
            expect(state.cancelled).toBe(true);
          } else expectBodyRead(result, body, max, mode);
          // The reservation is only spent when the kept bytes do not fit in it.
          if (Math.min(body.length, max) <= capacity) expect(log.refusals).toBe(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reports a source that fails, with what was kept before it failed', async () => {
    await fc.assert(
      fc.asyncProperty(chunkedBody, fc.nat({ max: 12 }), async ({ chunks }, failAfter) => {
        fc.pre(failAfter < chunks.length);
        const { reservation, log } = recordingReservation();
        const { stream } = webBody(chunks, { failAfter });
        const result = await readBounded(webStreamSource(stream), { limit: Infinity, overLimit: 'fail', reservation });
        expect(result.ok).toBe(false);
        if (result.ok || result.error.kind !== 'unreadable') throw new Error('expected unreadable');
        expect((result.error.cause as Error).message).toBe('connection reset');
        expect(Buffer.from(result.error.received).equals(Buffer.concat(chunks.slice(0, failAfter)))).toBe(true);
        expect(log.held).toBe(0);
      }),
    );
  });

  it('readPrefix keeps the first `limit` bytes, and ends early only when the source fails', async () => {
    await fc.assert(
      fc.asyncProperty(chunkedBody, limit, fc.option(fc.nat({ max: 12 })), async ({ body, chunks }, max, failAfter) => {
        const { stream, state } = webBody(chunks, failAfter === null ? {} : { failAfter });
        const result = await readPrefix(webStreamSource(stream), max);
        if (result.ok) expectBodyRead(result, body, max, 'keep_prefix');
        else {
          expect(result.error.kind).toBe('unreadable');
          expect(failAfter !== null && failAfter <= chunks.length).toBe(true);
          expect(Buffer.from(result.error.received).equals(Buffer.concat(chunks.slice(0, failAfter!)))).toBe(true);
        }
        expect(state.cancelled).toBe(result.ok && result.value.exceeded);
      }),
      { numRuns: 200 },
    );
  });

  it('treats a Node stream closed before its end as unreadable', async () => {
    const stream = new Readable({ read() {} });
    stream.push(Buffer.from('partial'));
    const reading = readBounded(nodeStreamSource(stream), { limit: 100, overLimit: 'fail' });
    await new Promise((resolve) => setImmediate(resolve));
    stream.destroy();
    const result = await reading;
    expect(!result.ok && result.error.kind).toBe('unreadable');
    expect(!result.ok && result.error.kind === 'unreadable' && Buffer.from(result.error.received).toString()).toBe(
      'partial',
    );
  });

  it('stops a stalled source at the deadline, and gives back what it reserved', async () => {
    const { reservation, log } = recordingReservation();
    let cancelled = false;
    // Ten bytes, then nothing: a body that stalls after its first bytes.
    const stalled = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new Uint8Array(10)),
      cancel: () => void (cancelled = true),
    });
    const started = performance.now();
    const result = await readBounded(webStreamSource(stalled), {
      limit: 100,
      overLimit: 'fail',
      timeoutMs: 50,
      reservation,
    });
    expect(result).toEqual({ ok: false, error: { kind: 'timeout', timeoutMs: 50 } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(cancelled).toBe(true);
    expect(log).toMatchObject({ reserved: 10, released: 10, held: 0 });
  });

  it('stops at an abort, given before or during the read', async () => {
    const during = stalledSource();
    const controller = new AbortController();
    const reading = readBounded(during.source, { limit: 100, overLimit: 'fail', signal: controller.signal });
    controller.abort('caller gave up');
    expect(await reading).toEqual({ ok: false, error: { kind: 'aborted', reason: 'caller gave up' } });
    expect(during.state).toEqual({ started: true, stopped: true });

    const { stream, state } = webBody([new Uint8Array(1)]);
    const result = await readBounded(webStreamSource(stream), {
      limit: 100,
      overLimit: 'fail',
      signal: AbortSignal.abort('already'),
    });
    expect(result).toEqual({ ok: false, error: { kind: 'aborted', reason: 'already' } });
    expect(state).toEqual({ pulled: 0, cancelled: true });
  });

  it('reports a source that throws as it starts (a locked stream) as unreadable', async () => {
    const { stream } = webBody([]);
    stream.getReader();
    const result = await readBounded(webStreamSource(stream), { limit: 1, overLimit: 'fail' });
    expect(!result.ok && result.error.kind).toBe('unreadable');
  });
});

describe('cappedStream', () => {
  it('passes the body through when it fits, and errors (cancelling the source) when it does not, by the same count', async () => {
    await fc.assert(
      fc.asyncProperty(chunkedBody, limit, async ({ body, chunks }, max) => {
        const { stream, state } = webBody(chunks);
        const overError = new Error('over');
        const capped = cappedStream(stream, max, () => overError);
        const read = await new Response(capped).arrayBuffer().then(
          (bytes) => new Uint8Array(bytes),
          (error: unknown) => error,
        );
        const direct = await readBounded(webStreamSource(webBody(chunks).stream), { limit: max, overLimit: 'fail' });
        if (body.length > max) {
          expect(read).toBe(overError);
          expect(state.cancelled).toBe(true);
          expect(direct.ok).toBe(false);
        } else {
          expect(Buffer.from(read as Uint8Array).equals(Buffer.from(body))).toBe(true);
          expect(direct.ok).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});
