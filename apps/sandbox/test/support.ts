// Test support: start sandboxes and receivers on 127.0.0.1 (ports chosen at run time), call the
// API, and validate every JSON answer against the bundled spec.
import { createServer, request, type Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { createSpecValidator, formatErrors } from '@forms-api/spec/validator';
import { listen } from '@forms-api/test-support';
import { startSandbox, type SandboxHandle, type SandboxOptions } from '../src/index.js';

const bundle = createRequire(import.meta.url)('@forms-api/spec/openapi.json');
export const spec = createSpecValidator(bundle);

export async function sandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  return startSandbox({ allowPrivateWebhooks: true, rateLimit: false, ...options });
}

/** One sandbox of each behaviour, same options, for side-by-side assertions; close() stops both. */
export async function sideBySide(options: SandboxOptions = {}) {
  const [contract, observed] = await Promise.all([
    sandbox({ ...options, behaviour: 'contract' }),
    sandbox({ ...options, behaviour: 'observed' }),
  ]);
  return { contract, observed, close: () => Promise.all([contract.close(), observed.close()]).then(() => undefined) };
}

export interface Call {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export async function call(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; operationId?: string } = {},
): Promise<Call> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (options.operationId) assertMatchesSpec(options.operationId, response.status, body, response.headers);
  return { status: response.status, headers: response.headers, body, text };
}

/** Throws unless the status is documented for the operation and the JSON body matches its schema. */
export function assertMatchesSpec(operationId: string, status: number, body: unknown, headers: Headers): void {
  if (!spec.documentedStatuses(operationId).includes(String(status)))
    throw new Error(`${operationId} answered undocumented status ${status}`);
  if (!headers.get('content-type')?.startsWith('application/json'))
    throw new Error(`${operationId} ${status}: content type ${headers.get('content-type')}`);
  const result = spec.validateResponse(operationId, status, body);
  if (!result.valid) throw new Error(`${operationId} ${status}: ${formatErrors(result.errors).join('; ')}`);
}

export interface Delivery {
  headers: IncomingMessage['headers'];
  raw: Buffer;
}

/** A webhook receiver answering with `respond` (default 200); `hang` never answers. */
export async function receiver(respond: number | 'hang' = 200) {
  const deliveries: Delivery[] = [];
  const pending = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, raw: Buffer.concat(chunks) });
      if (respond === 'hang') pending.add(res);
      else res.writeHead(respond, { 'content-type': 'text/plain' }).end(respond >= 400 ? 'receiver refused' : 'ok');
    });
  });
  const { url, close } = await listen(server);
  return {
    url: `${url}/hook`,
    deliveries,
    close: () => {
      for (const res of pending) res.destroy();
      return close();
    },
  };
}

export interface RawResponse {
  status: number;
  headers: IncomingMessage['headers'];
  text: string;
}

/**
 * One request over node:http, for what fetch cannot send: a chosen Host header, a fixed agent
 * (connection count), a body sent in two halves `pauseMs` apart (so the handler waits mid-body).
 */
export function rawRequest(
  base: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string; agent?: Agent; pauseMs?: number } = {},
): Promise<RawResponse> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, headers: options.headers ?? {}, ...(options.agent ? { agent: options.agent } : {}) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.pauseMs === undefined || options.body === undefined) return void req.end(options.body);
    const body = Buffer.from(options.body);
    req.setHeader('content-length', body.length);
    req.write(body.subarray(0, body.length >> 1));
    setTimeout(() => req.end(body.subarray(body.length >> 1)), options.pauseMs);
  });
}

/** The field ids of a form by field name. */
export async function fieldIds(sb: SandboxHandle, formId: number): Promise<Record<string, string>> {
  const form = (await call(sb.baseUrl, 'GET', `/open/forms/${formId}`, { token: sb.tokens.all })).body;
  return Object.fromEntries(form.properties.map((p: { name: string; id: string }) => [p.name, p.id]));
}

/** A whole form as the create and update routes take it (every setting they require), titled `title`. */
export const wholeForm = (title: string) => ({
  title,
  visibility: 'public',
  language: 'en',
  theme: 'default',
  presentation_style: 'classic',
  width: 'centered',
  size: 'md',
  border_radius: 'small',
  dark_mode: 'auto',
  color: '#3B82F6',
  uppercase_labels: false,
  no_branding: false,
  transparent_background: false,
  properties: [{ id: '3700d380-197b-47b9-a008-3acc31bbd506', name: 'Name', type: 'text', required: true }],
});
