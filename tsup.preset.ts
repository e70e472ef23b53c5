// The build settings every published package shares (CONTRIBUTING.md, "Building and module formats"):
// each package's tsup.config.ts names its entries and what is its own, these say the rest.
import type { Options } from 'tsup';

/** Private workspace packages are never published: inlined into the code and the declarations. */
const INLINED = /^@forms-api\/internal/;

/** Declarations when asked for (`true` or tsup's object), with the private packages inlined. */
function declarations(dts: Options['dts']): Options['dts'] {
  if (!dts) return false;
  return { ...(typeof dts === 'object' ? dts : {}), resolve: [INLINED] };
}

/**
 * A library (`packages/*`): ESM and CommonJS with declarations beside each file, ES2022 for every
 * runtime it names (browsers, workers, Bun, Deno, Node). With several entries, splitting for
 * CommonJS too: they share one copy of each module, so an error thrown through one subpath is
 * `instanceof` the class required from another. Not with one: tsup's CommonJS splitting goes
 * through a transform that rewrites ES2020 syntax (optional chaining) into helpers.
 */
export function library(options: Options): Options {
  const entries = options.entry ?? [];
  return {
    format: ['esm', 'cjs'],
    splitting: (Array.isArray(entries) ? entries.length : Object.keys(entries).length) > 1,
    clean: true,
    sourcemap: false,
    target: 'es2022',
    ...options,
    dts: declarations(options.dts ?? true),
  };
}

/**
 * A command or a Node-only tool (the sandbox, the contract suite, the libraries' CLIs): ESM only,
 * for Node 20, the floor of every package's `engines` (the tools ask for 20.19, which `require()`s
 * ES modules, for their users' sake, not for their syntax). No declarations unless asked for.
 */
export function tool(options: Options): Options {
  return {
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    clean: true,
    ...options,
    dts: declarations(options.dts ?? false),
  };
}
