// A deliberately broken target for the self-test: node:http on 127.0.0.1 in front of the Prism
// mock, applying one fault to matching requests or responses. Requests and responses have the
// shapes of the sandbox's behaviour layer, so its fault catalogue's rewrites apply here unchanged.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeStreamSource, readPrefix } from '@forms-api/internal/bounded-body';
import type { ExchangeRequest, ExchangeResponse } from '@forms-api/sandbox/faults';

export type ProxiedRequest = ExchangeRequest;
export type ProxiedResponse = ExchangeResponse;

export interface ProxyFault {
  /** Changes the request before it is forwarded (for example drops Prism's Prefer header). */
  request?(req: ProxiedRequest): void;
  /** Changes the response before it is returned. */
  response?(req: ProxiedRequest, res: ProxiedResponse): void;
}

export interface MutatingProxy {
  readonly baseUrl: string;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'host',
  'content-encoding',
]);

export async function startMutatingProxy(upstream: string, fault?: ProxyFault): Promise<MutatingProxy> {
  const server = createServer((incoming, outgoing) => {
    // The suite's own requests, read whole (no limit) by the one body reader.
    void readPrefix(nodeStreamSource(incoming), Infinity).then(async (read) => {
      if (!read.ok) return void incoming.destroy();
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(incoming.headers))
        if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      const req: ProxiedRequest = { method: incoming.method ?? 'GET', path: incoming.url ?? '/', headers };
      fault?.request?.(req);
      try {
        const body = read.value.bytes.length > 0 ? read.value.bytes.slice() : undefined;
        const upstreamResponse = await fetch(`${upstream}${req.path}`, {
          method: req.method,
          headers: req.headers,
          ...(body && req.method !== 'GET' ? { body } : {}),
        });
        const res: ProxiedResponse = {
          status: upstreamResponse.status,
          headers: {},
          body: await upstreamResponse.text(),
        };
        upstreamResponse.headers.forEach((value, key) => {
          if (!HOP_BY_HOP.has(key)) res.headers[key] = value;
        });
        fault?.response?.(req, res);
        outgoing.writeHead(res.status, res.headers).end(res.status === 204 ? undefined : res.body);
      } catch (error) {
        outgoing
          .writeHead(502, { 'content-type': 'text/plain' })
          .end(`mutating proxy: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
