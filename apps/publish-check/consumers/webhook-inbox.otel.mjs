// A Node 20 user's OpenTelemetry: the SDK's 2.x line (the last that runs on Node 20) needs an
// `@opentelemetry/api` below 1.10. The MeterProvider the application registers through its API
// must be the one the inbox records on: an API of the inbox's own, of a newer minor, would refuse
// the application's (the API's version rule) and every metric and span would go nowhere.
import assert from 'node:assert/strict';
import { metrics } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { createInbox } from '@forms-api/webhook-inbox';
import { inboxHandler } from '@forms-api/webhook-inbox/fetch';

const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
const provider = new MeterProvider({ readers: [reader] });
metrics.setGlobalMeterProvider(provider);

// An unsigned delivery is refused before Redis: the refusal is counted by reason.
const inbox = createInbox({
  connection: 'redis://127.0.0.1:1',
  secret: 'whsec_1234567890abcdefghijklmnop',
  onRedisError: () => {},
});
const refused = await inboxHandler(inbox)(
  new Request('http://x.test/hook', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }),
);
assert.equal(refused.status, 401);
await inbox.close();

await reader.forceFlush();
const recorded = exporter
  .getMetrics()
  .flatMap((resource) => resource.scopeMetrics)
  .filter((scope) => scope.scope.name === '@forms-api/webhook-inbox')
  .flatMap((scope) => scope.metrics.map((metric) => metric.descriptor.name));
assert.ok(
  recorded.includes('forms_inbox.deliveries.rejected'),
  `the application's MeterProvider (@opentelemetry/api 1.9) received none of the inbox's metrics (got: ${recorded.join(', ') || 'nothing'})`,
);
await provider.shutdown();
console.log('esm: @forms-api/webhook-inbox records on a Node 20 OpenTelemetry SDK (api 1.9) ok');
