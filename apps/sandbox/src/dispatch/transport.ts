// Sends one webhook request and reports what became of it: one POST, no redirects followed, a
// time limit, after the SSRF guard has passed the URL. The dispatcher records the outcome.
import { checkWebhookUrl, type WebhookUrlPolicy } from './webhook-url.js';

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

export function createTransport(options: TransportOptions): Transport {
  return {
    async send(delivery) {
      const destination = await checkWebhookUrl(delivery.url, options);
      if (!destination.ok) return { kind: 'refused', reason: destination.error };
      try {
        const response = await fetch(delivery.url, { method: 'POST', headers: delivery.headers, body: delivery.body, redirect: 'manual', signal: AbortSignal.timeout(options.timeoutMs) });
        return { kind: 'answered', status: response.status, excerpt: await response.text().catch(() => '') };
      } catch (error) {
        const name = (error as Error).name;
        if (name === 'TimeoutError' || name === 'AbortError') return { kind: 'timeout' };
        const cause = (error as { cause?: Error }).cause;
        return { kind: 'unreachable', message: `${(error as Error).message}${cause ? `: ${cause.message}` : ''}` };
      }
    },
    close() {},
  };
}
