// Parses docs:serve's arguments: --port (0, the default, picks a free port) and --dir (the
// folder to serve, apps/docs/dist by default).
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { fail, type DocsResult } from './errors.ts';

const defaultDir = fileURLToPath(new URL('../dist', import.meta.url));

export interface ServeOptions {
  port: number;
  dir: string;
}

export function parseServeArgs(argv: string[]): DocsResult<ServeOptions> {
  let values: { port?: string; dir?: string };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { port: { type: 'string' }, dir: { type: 'string' } },
      strict: true,
    }));
  } catch (err) {
    return fail('usage', `${(err as Error).message}. Usage: docs:serve [--port N] [--dir PATH]`, {
      cause: err,
    });
  }
  const port = Number(values.port ?? '0');
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    return fail('usage', `--port must be an integer from 0 to 65535, got "${values.port}"`, {
      context: { argument: '--port', value: values.port },
    });
  }
  return { ok: true, value: { port, dir: resolve(values.dir ?? defaultDir) } };
}
