// Applies behaviours around the sandbox: around its fetch handler (requests and responses) and
// around its webhook transport (deliveries). With no behaviour the handler and the transport are
// returned unchanged, so the layer costs nothing in ordinary use.
import type { Transport } from '../dispatch/transport.js';
import type { Behaviour, ExchangeRequest, ExchangeResponse, SandboxView } from './behaviour.js';

export type FetchHandler = (request: Request, env?: unknown) => Response | Promise<Response>;

const NO_BODY_STATUSES = new Set([101, 204, 205, 304]);

export function behaviourAroundHandler(
  handler: FetchHandler,
  behaviours: readonly Behaviour[],
  sandbox: SandboxView,
): FetchHandler {
  const requestRewrites = behaviours.filter((b) => b.request);
  const responseRewrites = behaviours.filter((b) => b.response);
  if (requestRewrites.length === 0 && responseRewrites.length === 0) return handler;
  return async (request, env) => {
    const url = new URL(request.url);
    const sent: ExchangeRequest = {
      method: request.method,
      path: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(request.headers),
    };
    const exchange: ExchangeRequest = { ...sent, headers: { ...sent.headers } };
    for (const b of requestRewrites) b.request!(exchange, sandbox);
    const rewritten = new Request(new URL(exchange.path, url.origin), {
      method: exchange.method,
      headers: exchange.headers,
      // A rewrite may turn a request into a GET, which carries no body.
      body: exchange.method === 'GET' || exchange.method === 'HEAD' ? null : request.body,
      // Node's fetch needs this to pass a streamed body on.
      duplex: 'half',
    } as RequestInit);
    const response = await handler(rewritten, env);
    if (responseRewrites.length === 0) return response;
    const res: ExchangeResponse = {
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body: await response.text(),
    };
    for (const b of responseRewrites) b.response!(sent, res);
    return new Response(NO_BODY_STATUSES.has(res.status) ? null : res.body, {
      status: res.status,
      headers: res.headers,
    });
  };
}

export function behaviourAroundTransport(transport: Transport, behaviours: readonly Behaviour[]): Transport {
  const deliveryRewrites = behaviours.filter((b) => b.delivery);
  if (deliveryRewrites.length === 0) return transport;
  return {
    send(delivery) {
      const rewritten = { ...delivery, headers: { ...delivery.headers } };
      for (const b of deliveryRewrites) b.delivery!(rewritten);
      return transport.send(rewritten);
    },
  };
}
