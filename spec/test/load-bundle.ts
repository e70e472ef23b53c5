// Loads the bundled spec (spec/dist, made by `pnpm bundle`) for the tests.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PATH_ITEM_METHODS } from '../lib/path-item-methods.mjs';

export const specDir = fileURLToPath(new URL('..', import.meta.url));

export function readJson<T = any>(relativePath: string): T {
  return JSON.parse(readFileSync(new URL(`../${relativePath}`, import.meta.url), 'utf8')) as T;
}

export const bundle = readJson('dist/openapi.json');

export function* operations(): Generator<{ path: string; method: string; operation: any }> {
  for (const [path, item] of Object.entries<any>(bundle.paths)) {
    for (const method of PATH_ITEM_METHODS) if (item[method]) yield { path, method, operation: item[method] };
  }
}

export function resolve(node: any): any {
  let current = node;
  while (current?.$ref) {
    current = current.$ref
      .slice(2)
      .split('/')
      .map((s: string) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce((acc: any, seg: string) => acc?.[seg], bundle);
  }
  return current;
}
