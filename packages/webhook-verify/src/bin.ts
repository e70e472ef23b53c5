#!/usr/bin/env node
// Entry point of the `forms-webhook` command. exitCode rather than exit(): piped output is flushed.
import { main } from './cli.js';

process.exitCode = await main(process.argv.slice(2));
