// The client must run on Node, Bun, Deno, browsers and Workers: src may only use web-standard
// globals. (tsconfig.json also compiles src with `types: []`, so Node globals do not type-check.)
// The one exception is src/cli, the `forms-export` command, a Node program built on its own
// (dist/bin.js): no library module may import it.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, sep } from 'node:path';
import { expect, it } from 'vitest';

const srcDir = join(import.meta.dirname, '..', 'src');
const nodeModules = new Set(builtinModules);

it('no module in src imports a Node built-in or uses Node-only globals', () => {
  const files = readdirSync(srcDir, { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.endsWith('.ts') && !f.startsWith(`cli${sep}`),
  );
  expect(files.length).toBeGreaterThan(5);
  for (const file of files) {
    const text = readFileSync(join(srcDir, file), 'utf8');
    expect(text, `${file} imports the Node-only command`).not.toMatch(/from\s*['"]\.\/cli\//);
    for (const [, specifier] of text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)) {
      expect(specifier!.startsWith('node:'), `${file} imports ${specifier}`).toBe(false);
      expect(nodeModules.has(specifier!), `${file} imports ${specifier}`).toBe(false);
    }
    expect(text, `${file} uses require()`).not.toMatch(/\brequire\(/);
    expect(text, `${file} uses Buffer or process`).not.toMatch(/\b(Buffer|process)\./);
  }
});
