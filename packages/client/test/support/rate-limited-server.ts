// A test server that enforces "N requests per window" per token, as the service does
// (`throttle:100,1`: fixed windows from a window's first request; X-RateLimit-Limit and
// -Remaining on every answer; 429 with Retry-After and X-RateLimit-Reset past the budget). It
// counts on a virtual clock: each request carries the virtual time it was sent at, stamped by
// `stampedFetch`, so that pacing for minutes is judged in milliseconds. Requests `own` matches are
// counted in a bucket of their own, as the service counts its export (`throttle:export`).
import { json, startServer, type SeenRequest, type TestServer } from './server.js';

export const SENT_AT = 'x-test-sent-at';

export interface RateLimitedServer extends TestServer {
  /** 429s answered. */
  readonly refused: () => number;
  /** The virtual time each request was sent at, by bucket (`shared`, or the own bucket's name). */
  readonly sentAt: (bucket: string) => number[];
  /** Spends `count` of the current window's budget, as another user of the token would. */
  spend(count: number, at: number): void;
}

/** A bucket of its own: `limit` requests a window for the requests `matches` accepts. */
export interface OwnBucket {
  readonly name: string;
  readonly limit: number;
  readonly matches: (req: SeenRequest) => boolean;
}

export async function startRateLimitedServer(
  sharedLimit: number,
  windowMs = 60_000,
  own?: OwnBucket,
): Promise<RateLimitedServer> {
  const windows = new Map<string, { start: number; count: number }>();
  const sent = new Map<string, number[]>();
  let refused = 0;
  const hit = (t: number, bucket = 'shared') => {
    let window = windows.get(bucket);
    if (!window || t - window.start >= windowMs) windows.set(bucket, (window = { start: t, count: 0 }));
    window.count++;
    return window;
  };
  const server = await startServer((req, res) => {
    const t = Number(req.headers[SENT_AT]);
    if (!Number.isFinite(t)) return json(res, 400, { message: `no ${SENT_AT} header` });
    const bucket = own?.matches(req) ? own.name : 'shared';
    const limit = bucket === 'shared' ? sharedLimit : own!.limit;
    sent.set(bucket, [...(sent.get(bucket) ?? []), t]);
    const w = hit(t, bucket);
    const headers = {
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(Math.max(0, limit - w.count)),
    };
    if (w.count > limit) {
      refused++;
      const resetAt = w.start + windowMs;
      return json(
        res,
        429,
        { message: 'Too Many Attempts.' },
        {
          ...headers,
          'retry-after': String(Math.max(1, Math.ceil((resetAt - t) / 1000))),
          'x-ratelimit-reset': String(Math.ceil(resetAt / 1000)),
        },
      );
    }
    json(res, 200, [], headers);
  });
  return {
    ...server,
    refused: () => refused,
    sentAt: (bucket) => sent.get(bucket) ?? [],
    spend(count, at) {
      for (let i = 0; i < count; i++) hit(at);
    },
  };
}

/** A fetch that stamps each request with the virtual time it is sent at. */
export function stampedFetch(now: () => number) {
  return (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    request.headers.set(SENT_AT, String(now()));
    return fetch(request);
  };
}
