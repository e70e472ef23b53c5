#!/usr/bin/env node
// `pnpm lint`'s import-cycle check: finds every cycle among the repository's TypeScript and
// JavaScript sources with madge (which resolves `./x.js` to `x.ts` through TypeScript and counts
// `import type` edges: a cycle of types alone still couples the modules), and fails on any cycle
// not listed in ALLOWED. Usage: check.mjs [DIR...] (default: the repository's source folders).
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import madge from 'madge';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Known cycles, to be removed, never added to. Each is written as madge prints it (paths from the
 * repository root, in madge's order).
 */
export const ALLOWED = [];

const SOURCE_DIRS = ['packages', 'apps', 'tools', 'spec/lib', 'spec/scripts'];
// Built and generated output, and test fixtures (some are deliberately broken sources).
const EXCLUDE = '(^|/)(node_modules|dist|generated|artifacts|reports|fixtures|consumers)/';
const EXCLUDE_BUILT = '(^|/)(node_modules|dist)/';

/** The cycles among the files under `dirs`, each as its files joined by ` > `, relative to `base`. */
export async function findCycles(dirs, base = root, exclude = EXCLUDE) {
  const result = await madge(dirs, {
    baseDir: base,
    fileExtensions: ['ts', 'mts', 'cts', 'tsx', 'js', 'mjs', 'cjs'],
    excludeRegExp: [new RegExp(exclude)],
    tsConfig: join(root, 'tsconfig.base.json'),
    detectiveOptions: { ts: { skipTypeImports: false }, es6: { skipTypeImports: false } },
  });
  return result.circular().map((cycle) => cycle.map((file) => relative(base, join(base, file))).join(' > '));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const dirs = args.length > 0 ? args : SOURCE_DIRS.map((d) => join(root, d)).filter((d) => existsSync(d));
  const cycles = args.length > 0 ? await findCycles(dirs, process.cwd(), EXCLUDE_BUILT) : await findCycles(dirs);
  const unexpected = cycles.filter((c) => !ALLOWED.includes(c));
  const stale = args.length > 0 ? [] : ALLOWED.filter((c) => !cycles.includes(c));
  for (const c of stale)
    console.log(
      `import-cycles: the allowed cycle ${c} is gone: delete it from ALLOWED in tools/import-cycles/check.mjs.`,
    );
  if (unexpected.length > 0) {
    console.error(
      `import-cycles: ${unexpected.length} import cycle(s) (type-only imports count):\n${unexpected.map((c) => `  - ${c}`).join('\n')}\nBreak each: move what both sides need into a leaf module that imports neither.`,
    );
    process.exitCode = 1;
  } else {
    console.log(
      `import-cycles: no import cycle${cycles.length ? ` but the ${cycles.length} known one(s) listed in ALLOWED` : ''}.`,
    );
  }
}
