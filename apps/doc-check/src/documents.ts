// The documents whose code and commands must work as printed: every README of the repository and
// every guide of the docs site (and guide drafts kept next to a package).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const SAMPLES_DIR = fileURLToPath(new URL('../samples/', import.meta.url));

export interface Document {
  /** Path relative to the repository root. */
  readonly path: string;
  readonly text: string;
}

const WORKSPACE_DIRS = ['packages', 'apps', 'tools'];

function markdownIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => join(dir, f));
}

export function documentPaths(root = REPO_ROOT): string[] {
  const paths = [
    join(root, 'README.md'),
    join(root, 'spec', 'README.md'),
    ...markdownIn(join(root, 'apps', 'docs', 'guides')),
  ];
  for (const group of WORKSPACE_DIRS) {
    const base = join(root, group);
    if (!existsSync(base)) continue;
    for (const name of readdirSync(base).sort()) {
      const readme = join(base, name, 'README.md');
      if (existsSync(readme)) paths.push(readme);
      paths.push(...markdownIn(join(base, name, 'docs')));
    }
  }
  return paths.filter((p) => existsSync(p));
}

export function readDocuments(root = REPO_ROOT): Document[] {
  return documentPaths(root).map((p) => ({ path: relative(root, p), text: readFileSync(p, 'utf8') }));
}
