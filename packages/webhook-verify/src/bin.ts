#!/usr/bin/env node
// Entry point of the `forms-webhook` command.
import { main } from './cli.js';

main(process.argv.slice(2)).then((code) => process.exit(code));
