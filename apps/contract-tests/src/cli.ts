#!/usr/bin/env node
// `pnpm contract`: wires runCli to the process (arguments, environment, stdout/stderr, Ctrl-C) and
// exits 0 only when nothing unexpected failed.
import { runCli } from './run-cli.js';

// pnpm passes a literal "--" through when the user writes `pnpm contract -- --target live`.
const argv = process.argv.slice(2).filter((a, i) => !(i === 0 && a === '--'));

// Ctrl-C: stop after the current check, let cleanups and process stops run; a second one forces.
const controller = new AbortController();
let interrupts = 0;
const onSigint = () => {
  interrupts++;
  if (interrupts === 1) {
    console.error(
      '\ninterrupted: finishing the current check, cleaning up and stopping servers (Ctrl-C again to force)',
    );
    controller.abort();
  } else {
    process.exit(130); // the exit hooks of the started processes kill their groups
  }
};
process.on('SIGINT', onSigint);
process.on('SIGTERM', onSigint);

runCli({
  argv,
  env: process.env,
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  signal: controller.signal,
}).then(
  (code) => {
    process.off('SIGINT', onSigint);
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`contract suite crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  },
);
