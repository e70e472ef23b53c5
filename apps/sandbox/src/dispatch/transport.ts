// Sends one webhook request and reports what became of it: one POST, no redirects followed, a total
// time limit. The connection goes to the address the URL guard checked, so a second DNS answer
// cannot send it elsewhere.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkWebhookUrl, type ResolvedAddress, type WebhookUrlPolicy } from './webhook-url.js';

export interface OutgoingDelivery {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export type DeliveryOutcome =
  | { kind: 'answered'; status: number; excerpt: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'timeout' }
  | { kind: 'unreachable'; message: string };

export interface Transport {
  send(delivery: OutgoingDelivery): Promise<DeliveryOutcome>;
  /** Closes the kept-alive connections. */
  close(): void;
}

export interface TransportOptions extends WebhookUrlPolicy {
  timeoutMs: number;
}

/** A lookup that answers with the checked address only (Node calls it for host names, not literals). */
const pinnedLookup = (pinned: ResolvedAddress): LookupFunction => (_host, options, callback) => {
  if (options.all) (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [pinned]);
  else callback(null, pinned.address, pinned.family);
};

export function createTransport(options: TransportOptions): Transport {
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

  async function send(delivery: OutgoingDelivery): Promise<DeliveryOutcome> {
    const destination = await checkWebhookUrl(delivery.url, options);
    if (!destination.ok) return { kind: 'refused', reason: destination.error };
    const { url, pinned } = destination.value;
    const secure = url.protocol === 'https:';
    return new Promise<DeliveryOutcome>((resolve) => {
      let settled = false;
      const settle = (outcome: DeliveryOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const request = (secure ? httpsRequest : httpRequest)(url, {
        method: 'POST',
        headers: { ...delivery.headers, 'content-length': String(Buffer.byteLength(delivery.body)) },
        agent: secure ? agents.https : agents.http,
        ...(pinned ? { lookup: pinnedLookup(pinned) } : {}),
      });
      const timer = setTimeout(() => {
        settle({ kind: 'timeout' });
        request.destroy();
      }, options.timeoutMs);
      request.on('error', (error) => settle({ kind: 'unreachable', message: error.message }));
      request.on('response', (response: IncomingMessage) => readAll(response, (text) => settle({ kind: 'answered', status: response.statusCode ?? 0, excerpt: text })));
      request.end(delivery.body);
    });
  }

  return {
    send,
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

function readAll(response: IncomingMessage, done: (text: string) => void): void {
  const chunks: Buffer[] = [];
  response.on('data', (chunk: Buffer) => chunks.push(chunk));
  response.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
  response.on('error', () => done(Buffer.concat(chunks).toString('utf8')));
}
