// Produces the bundled spec as a plain object: Redocly resolves the multi-file source into one
// document, then components get stable PascalCase names (their schema `title`, or the file
// name) so generated types read `components["schemas"]["FormSummary"]`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const specDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const redoclyEnv = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };

export function bundleSpec() {
  const scratchDir = mkdtempSync(join(tmpdir(), 'forms-spec-'));
  try {
    const out = join(scratchDir, 'openapi.yaml');
    execFileSync('redocly', ['bundle', 'openapi.yaml', '--output', out], {
      cwd: specDir,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: redoclyEnv,
    });
    const bundle = parse(readFileSync(out, 'utf8'));
    renameComponents(bundle);
    // The standalone webhook schema carries $id/$schema/$defs for receivers that use it alone;
    // inside the bundle an $id would rebase its rewritten refs, and $defs were hoisted already.
    for (const schema of Object.values(bundle.components?.schemas ?? {})) {
      delete schema.$id;
      delete schema.$schema;
      delete schema.$defs;
    }
    assertInternalRefsOnly(bundle);
    return bundle;
  } finally {
    rmSync(scratchDir, { recursive: true, force: true });
  }
}

function pascalCase(name) {
  return name
    .replace(/\.schema$/, '')
    .split(/[-_.\s]+/)
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
}

function renameComponents(bundle) {
  const renames = new Map();
  for (const [section, entries] of Object.entries(bundle.components ?? {})) {
    if (section === 'securitySchemes') continue;
    const renamed = {};
    for (const [name, value] of Object.entries(entries)) {
      const title =
        section === 'schemas' && typeof value?.title === 'string' && /^[A-Z][A-Za-z0-9]*$/.test(value.title)
          ? value.title
          : null;
      const next = title ?? pascalCase(name);
      if (renamed[next])
        throw new Error(
          `bundle: two ${section} components would both be named ${next}; give one a distinct title or file name`,
        );
      renamed[next] = value;
      renames.set(`#/components/${section}/${name}`, `#/components/${section}/${next}`);
    }
    bundle.components[section] = Object.fromEntries(Object.entries(renamed).sort(([a], [b]) => a.localeCompare(b)));
  }
  const rewrite = (node) => {
    if (Array.isArray(node)) return node.forEach(rewrite);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const [, base, rest] = value.match(/^(#\/components\/[^/]+\/[^/]+)(.*)$/) ?? [];
        if (base && renames.has(base)) node.$ref = renames.get(base) + rest;
      } else {
        rewrite(value);
      }
    }
  };
  rewrite(bundle);
}

function assertInternalRefsOnly(node, path = '#') {
  if (Array.isArray(node)) return node.forEach((v, i) => assertInternalRefsOnly(v, `${path}/${i}`));
  if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && (typeof value !== 'string' || !value.startsWith('#/'))) {
        throw new Error(
          `bundle: external or dangling $ref ${JSON.stringify(value)} at ${path}; every ref in spec/dist must be internal`,
        );
      }
      assertInternalRefsOnly(value, `${path}/${key}`);
    }
  }
}
