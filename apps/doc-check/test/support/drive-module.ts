// Runs in its own process (tsx), so a sample module's connections and env stay out of the test:
// imports the sample, calls the export named on the command line with a signed delivery, prints
// what came back as one JSON line, and exits.
import { sign } from '@forms-api/webhook-verify';
import { signedDelivery } from './delivery.js';

const [file, exportPath, mode = 'request'] = process.argv.slice(2) as [string, string, string?];
const sample = (await import(file)) as Record<string, unknown>;
const target = exportPath.split('.').reduce<any>((value, key) => value?.[key], sample);
if (typeof target !== 'function') throw new Error(`${file} has no function export ${exportPath}`);
const secret = process.env.FORMS_WEBHOOK_SECRET!;
const { body, headers } = await signedDelivery(secret);

if (mode === 'request') {
  const request = new Request('http://127.0.0.1/webhooks/forms', { method: 'POST', headers, body });
  const args = exportPath.startsWith('default.') ? [request, { FORMS_WEBHOOK_SECRET: secret }] : [request];
  const response = (await target.call(
    exportPath.startsWith('default.') ? sample.default : undefined,
    ...args,
  )) as Response;
  console.log(JSON.stringify({ status: response.status }));
} else {
  // `receive(rawBody, signature)`: the first delivery is accepted, its copy refused.
  const raw = new TextEncoder().encode(body);
  const first = await target(raw, await sign(secret, raw)).then(
    () => 'accepted',
    (e: Error & { kind?: string }) => e.kind ?? e.message,
  );
  const second = await target(raw, await sign(secret, raw)).then(
    () => 'accepted',
    (e: Error & { kind?: string }) => e.kind ?? e.message,
  );
  console.log(JSON.stringify({ first, second }));
}
process.exit(0);
