#!/usr/bin/env node
// Entry point of the `forms-export` command. exitCode rather than exit(): piped output is flushed.
import { main } from './forms-export.js';

process.exitCode = await main(process.argv.slice(2));
