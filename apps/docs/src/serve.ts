// `pnpm docs:serve [--port N] [--dir PATH]`: serves the built site on 127.0.0.1 and prints its
// URL; port 0 (the default) picks a free one. Stops on Ctrl-C or SIGTERM.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseServeArgs } from './serve-args.ts';
import { startStaticServer } from './static-server.ts';

async function main(): Promise<void> {
  const options = parseServeArgs(process.argv.slice(2).filter((a) => a !== '--'));
  if (!options.ok) {
    console.error(`docs:serve: ${options.error.kind}: ${options.error.message}`);
    process.exit(2);
  }
  const { port, dir } = options.value;
  if (!existsSync(join(dir, 'index.html'))) {
    console.error(`docs:serve: spec_missing: ${dir}/index.html does not exist; run \`pnpm docs:build\` first`);
    process.exit(1);
  }
  const server = await startStaticServer(dir, port);
  console.log(`docs:serve: serving ${dir} at ${server.url}`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

await main();
