// Sends one webhook request and reports what became of it: one POST, no redirects followed, a total
// time limit, and at most an excerpt of the receiver's answer read (an endless or huge answer is
// cut off). The connection goes to the address the URL guard checked, and is the delivery's own,
// as the service's is (a new HTTP client per call, WebhookIntegration.php:140-145): a delivery
// written on a kept-alive connection as the receiver closed it would be lost, never being resent.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { nodeStreamSource, readPrefix } from '@forms-api/internal/bounded-body';
import type { DeliveryOutcome } from '../model.js';
import { pinnedLookup } from '@forms-api/internal/pinned-lookup';
import { checkWebhookUrl, type WebhookUrlPolicy } from './webhook-url.js';

/** How much of a receiver's answer is read: it is only needed as an excerpt for the event. */
export const RECEIVER_EXCERPT_BYTES = 1024;

export interface OutgoingDelivery {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export type { DeliveryOutcome };

export interface Transport {
  /** Never `skipped`: that outcome is the dispatcher's, when nothing is sent. */
  send(delivery: OutgoingDelivery): Promise<DeliveryOutcome>;
}

export interface TransportOptions extends WebhookUrlPolicy {
  timeoutMs: number;
  /** How much of a receiver's answer is read (default RECEIVER_EXCERPT_BYTES). */
  answerBytes?: number;
}

export function createTransport(options: TransportOptions): Transport {
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
        agent: false,
        ...(pinned ? { lookup: pinnedLookup(pinned) } : {}),
      });
      const timer = setTimeout(() => {
        settle({ kind: 'timeout', afterMs: options.timeoutMs });
        request.destroy();
      }, options.timeoutMs);
      request.on('error', (error: NodeJS.ErrnoException) =>
        settle({ kind: 'unreachable', message: error.message, ...(error.code ? { code: error.code } : {}) }),
      );
      request.on('response', (response: IncomingMessage) =>
        readExcerpt(response, options.answerBytes ?? RECEIVER_EXCERPT_BYTES, (excerpt) =>
          settle({ kind: 'answered', status: response.statusCode ?? 0, excerpt }),
        ),
      );
      request.end(delivery.body);
    });
  }

  return { send };
}

/** Reads the first `limit` bytes of an answer, then stops reading (closing the connection if more was coming). */
function readExcerpt(response: IncomingMessage, limit: number, done: (excerpt: string) => void): void {
  void readPrefix(nodeStreamSource(response), limit).then((read) => {
    // An answer that broke off is reported with what came of it.
    const bytes = read.ok ? read.value.bytes : read.error.received;
    done(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
    if (!read.ok || read.value.exceeded) response.destroy();
  });
}
