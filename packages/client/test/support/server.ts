// A real HTTP server on 127.0.0.1, port chosen by the OS, that records what it receives. Each
// test creates its own and closes it.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { listen } from '@forms-api/test-support';

export interface SeenRequest {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Handler = (req: SeenRequest, res: ServerResponse, index: number) => void | Promise<void>;

export interface TestServer {
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen: SeenRequest = {
        method: req.method ?? '',
        url: new URL(req.url ?? '/', 'http://127.0.0.1'),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(seen);
      Promise.resolve(handler(seen, res, requests.length - 1)).catch((err: unknown) => {
        res.writeHead(599).end(String(err));
      });
    });
  });
  const { url, close } = await listen(server);
  return { url, requests, close };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** A port nothing listens on: bound, read, then closed. */
export async function closedPortUrl(): Promise<string> {
  const s = await startServer(() => {});
  await s.close();
  return s.url;
}
