// The sandbox's modules form no import cycle, type-only imports included: the rules take a
// RuleContext (src/rule-context.ts), never the SandboxContext that holds them (issue 21 item 4).
// Imports are resolved by TypeScript itself, as the compiler sees them.
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, test } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function importGraph(): Map<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(String(d.messageText));
      },
    },
  )!;
  const sources = config.fileNames.filter((f) => f.startsWith(join(root, 'src')));
  const graph = new Map<string, string[]>();
  for (const file of sources) {
    const { importedFiles } = ts.preProcessFile(ts.sys.readFile(file)!, true, true);
    const targets = importedFiles
      .map((i) => ts.resolveModuleName(i.fileName, file, config.options, ts.sys).resolvedModule?.resolvedFileName)
      .filter((f): f is string => f !== undefined && sources.includes(f));
    graph.set(file, targets);
  }
  return graph;
}

/** Each cycle found by a depth-first walk, as the list of its modules relative to src/. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const walk = (file: string, path: string[]) => {
    state.set(file, 'open');
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open')
        found.push([...path.slice(path.indexOf(next)), file, next].map((f) => relative(join(root, 'src'), f)));
      else if (!state.has(next)) walk(next, [...path, file]);
    }
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) walk(file, []);
  return found;
}

test('the walk finds a cycle when there is one', () => {
  const graph = new Map([
    ['/a', ['/b']],
    ['/b', ['/c']],
    ['/c', ['/a']],
  ]);
  expect(cycles(graph)).toHaveLength(1);
});

test('no module of the sandbox imports, through any chain, a module that imports it back', () => {
  const graph = importGraph();
  expect(graph.size).toBeGreaterThan(30);
  expect(cycles(graph)).toEqual([]);
});
