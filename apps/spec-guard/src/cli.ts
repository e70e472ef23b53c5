#!/usr/bin/env node
// `pnpm check`: spec/dist/openapi.json against spec/released/openapi.json, with the changesets
// of .changeset/. Exit 0 when compatible or covered; 1 with a report naming each breaking change.
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { check, workspacePackages } from './check.js';

const defaultRoot = fileURLToPath(new URL('../../..', import.meta.url));

function main(): number {
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2).filter((a) => a !== '--'),
      options: {
        root: { type: 'string' },
        released: { type: 'string' },
        current: { type: 'string' },
        changesets: { type: 'string' },
      },
    }));
  } catch (err) {
    console.error(
      `spec-guard: usage: ${(err as Error).message}. Usage: spec-guard [--root DIR] [--released FILE] [--current FILE] [--changesets DIR]`,
    );
    return 2;
  }
  const root = resolve(values.root ?? defaultRoot);
  const outcome = check({
    released: resolve(values.released ?? join(root, 'spec/released/openapi.json')),
    current: resolve(values.current ?? join(root, 'spec/dist/openapi.json')),
    changesetDir: resolve(values.changesets ?? join(root, '.changeset')),
    packages: workspacePackages(root),
  });
  (outcome.ok ? console.log : console.error)(outcome.report);
  return outcome.ok ? 0 : 1;
}

process.exitCode = main();
