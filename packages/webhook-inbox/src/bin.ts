#!/usr/bin/env node
// Entry point of the `forms-webhook-inbox` command. It sets the exit code and lets Node exit once
// stdout has drained: process.exit() would cut output still queued for a slow reader (a pipe to
// `less`, `jq`, a log collector).
import { printable } from '@forms-api/internal/printable';
import { runInboxCli } from './cli.js';

runInboxCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(printable(error instanceof Error ? error.message : String(error)));
    process.exitCode = 1;
  },
);
