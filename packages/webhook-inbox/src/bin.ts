#!/usr/bin/env node
// Entry point of the `forms-webhook-inbox` command.
import { runInboxCli } from './cli.js';

runInboxCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
