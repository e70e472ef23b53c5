// forms-webhook: sign and verify bodies from the shell, and send a signed test submission.created
// to a receiver (the offline equivalent of a "trigger test event" button).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { WebhookUsageError, WebhookVerificationError, sign, verifyOrThrow } from './node.js';

const USAGE = `Usage:
  forms-webhook sign   [--body FILE] [--secret S]               print the X-Webhook-Signature value
  forms-webhook verify --signature H [--body FILE] [--secret S] exit 0 if valid, 1 with the reason if not
  forms-webhook send   URL [--body FILE] [--secret S] [--header "Name: value"]... [--timeout-ms N]
                       POST a signed submission.created (the spec's example unless --body is given)

The body is read from --body FILE, or from standard input when --body is absent (sign, verify).
The secret comes from --secret or the FORMS_WEBHOOK_SECRET environment variable.`;

type Output = { out: (line: string) => void; err: (line: string) => void };

export async function main(argv: string[], io: Output = { out: (l) => console.log(l), err: (l) => console.error(l) }): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      body: { type: 'string' },
      secret: { type: 'string' },
      signature: { type: 'string' },
      header: { type: 'string', multiple: true },
      'timeout-ms': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    io.out(USAGE);
    return values.help ? 0 : 2;
  }
  const secret = values.secret ?? process.env.FORMS_WEBHOOK_SECRET;
  const needSecret = (): string => {
    if (!secret) throw new CliError('A secret is needed: pass --secret or set FORMS_WEBHOOK_SECRET.');
    return secret;
  };
  try {
    switch (command) {
      case 'sign': {
        io.out(await sign(needSecret(), readBody(values.body)));
        return 0;
      }
      case 'verify': {
        if (!values.signature) throw new CliError('verify needs --signature "sha256=…" (the X-Webhook-Signature value).');
        try {
          await verifyOrThrow(needSecret(), readBody(values.body), values.signature);
        } catch (error) {
          if (!(error instanceof WebhookVerificationError)) throw error;
          io.err(`invalid (${error.reason}): ${error.message}`);
          return 1;
        }
        io.out('valid');
        return 0;
      }
      case 'send': {
        const url = rest[0];
        if (!url || !/^https?:\/\//.test(url)) throw new CliError('send needs the receiver URL (http:// or https://) as its argument.');
        const body = values.body ? readFileSync(values.body) : Buffer.from(exampleBody(), 'utf8');
        const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'forms-webhook-cli' };
        for (const line of values.header ?? []) {
          const at = line.indexOf(':');
          if (at <= 0) throw new CliError(`--header must be "Name: value" (got ${JSON.stringify(line)}).`);
          headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
        }
        if (secret) headers['x-webhook-signature'] = await sign(secret, body);
        const timeoutMs = Number(values['timeout-ms'] ?? 5000);
        const started = performance.now();
        const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
        const text = await response.text();
        const elapsed = performance.now() - started;
        io.out(`${response.status} ${response.statusText} in ${elapsed.toFixed(1)} ms${secret ? '' : ' (unsigned: no secret given)'}`);
        if (text) io.out(text.length > 500 ? `${text.slice(0, 500)}…` : text);
        return response.status >= 200 && response.status < 400 ? 0 : 1;
      }
      default:
        throw new CliError(`Unknown command ${JSON.stringify(command)}.\n\n${USAGE}`);
    }
  } catch (error) {
    if (error instanceof CliError || error instanceof WebhookUsageError) {
      io.err(error.message);
      return 2;
    }
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'TypeError')) {
      io.err(`The request failed: ${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}`);
      return 1;
    }
    throw error;
  }
}

class CliError extends Error {}

function readBody(file: string | undefined): Buffer {
  return readFileSync(file ?? 0);
}

/** The spec's signed submission.created example, serialised compactly as the service sends it. */
function exampleBody(): string {
  const bundle = createRequire(import.meta.url)('@forms-api/spec/openapi.json');
  const examples = bundle.webhooks['submission.created'].post.requestBody.content['application/json'].examples;
  return JSON.stringify((Object.values(examples)[0] as { value: unknown }).value);
}
