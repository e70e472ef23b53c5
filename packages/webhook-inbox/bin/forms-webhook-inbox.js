#!/usr/bin/env node
// The `forms-webhook-inbox` command: a checked-in shim, so the bin exists before the first build.
import '../dist/bin.js';
