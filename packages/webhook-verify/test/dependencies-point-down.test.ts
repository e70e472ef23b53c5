// Issue 21 item 5: webhook-verify is the lowest runtime package. Its install pulls neither the
// inbox (above it) nor Ajv or the spec bundle (validation is an optional peer behind `/validate`),
// and no built file but `/validate` imports them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const FORBIDDEN = ['@forms-api/webhook-inbox', '@forms-api/spec', 'ajv', 'ajv-formats'];

function builtFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? builtFiles(join(dir, e.name)) : /\.(c?js)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** Every string literal naming one of them: an import, a require, or a specifier kept in a constant for a later import(). */
function namesIn(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/["'`]((?:@forms-api\/(?:webhook-inbox|spec)|ajv|ajv-formats)(?:\/[^"'`]*)?)["'`]/g)].map(
    (m) => m[1]!,
  );
}

describe('webhook-verify depends on nothing above it', () => {
  it('declares no run-time dependency on the inbox, the spec or Ajv; Ajv is an optional peer', () => {
    expect(Object.keys(manifest.dependencies ?? {}).filter((d) => FORBIDDEN.includes(d))).toEqual([]);
    expect(manifest.peerDependenciesMeta?.ajv?.optional).toBe(true);
    expect(manifest.peerDependenciesMeta?.['ajv-formats']?.optional).toBe(true);
  });

  it('imports them from no built file but /validate (which imports Ajv only)', () => {
    const offenders = builtFiles(join(root, 'dist'))
      .filter((file) => !/[\\/]validate\.c?js$/.test(file))
      .flatMap((file) => namesIn(file).map((name) => `${file.slice(root.length)}: ${name}`));
    expect(offenders).toEqual([]);
  });
});
