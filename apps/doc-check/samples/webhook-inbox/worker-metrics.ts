import { createServer } from 'node:http';
import { closeOnSignals, createInboxWorker } from '@forms-api/webhook-inbox';
import { closeHttpServer, inboxMetricsMiddleware } from '@forms-api/webhook-inbox/express';

const worker = createInboxWorker({
  connection: process.env.REDIS_URL!,
  async handler({ submissionKey }) {
    console.log(`submission ${submissionKey}`);
  },
});

// A worker serves no webhooks: give Prometheus a port of its own to scrape.
const metrics = createServer(inboxMetricsMiddleware()).listen(Number(process.env.METRICS_PORT ?? 9464));

closeOnSignals([() => closeHttpServer(metrics), worker]);
