// Each custom Spectral rule fires on a small spec that breaks it, and none fires on one that
// follows them all: proof that the project's lint can fail.
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { specDir } from './load-bundle.js';

const run = promisify(execFile);
const fixturesDir = join(specDir, 'test/fixtures/rules');
const spectral = join(specDir, 'node_modules/.bin/spectral');

const fixtures = readdirSync(fixturesDir).filter((f) => f.endsWith('.yaml'));

/** Every fixture linted by one Spectral process (one start instead of one per fixture): codes by file name. */
const linted = (async () => {
  // Spectral exits 1 when it finds problems; the JSON report is what matters.
  const { stdout } = await run(
    spectral,
    [
      'lint',
      ...fixtures.map((f) => join(fixturesDir, f)),
      '--ruleset',
      join(specDir, '.spectral.yaml'),
      '-f',
      'json',
      '--quiet',
    ],
    { cwd: specDir },
  ).catch((e) => e);
  const codes = new Map<string, string[]>(fixtures.map((f) => [f, []]));
  for (const r of JSON.parse(stdout) as Array<{ code: string; source: string }>)
    codes.get(basename(r.source))?.push(r.code);
  return codes;
})();
linted.catch(() => {}); // awaited by each test; its failure is theirs

async function lint(fixture: string): Promise<string[]> {
  const codes = (await linted).get(fixture);
  if (!codes) throw new Error(`${fixture} was not linted`);
  return codes;
}

const brokenFixtures = readdirSync(fixturesDir).filter((f) => f.startsWith('forms-'));

describe('custom Spectral rules', () => {
  it('cover every custom rule with a broken fixture', () => {
    const rules = new Set(brokenFixtures.map((f) => f.split('.')[0]));
    expect([...rules].sort()).toEqual([
      'forms-ability-is-known',
      'forms-list-bounds-per-page',
      'forms-observed-is-explained',
      'forms-operation-declares-ability',
      'forms-operation-has-403',
      'forms-operation-id-camel-case',
      'forms-path-parameter-identifies',
    ]);
  });

  it('stay silent on a spec that follows them', async () => {
    const codes = await lint('valid.yaml');
    expect(codes.filter((c) => c.startsWith('forms-'))).toEqual([]);
  }, 60_000);

  it.each(brokenFixtures)(
    'fire on %s',
    async (fixture) => {
      const rule = fixture.split('.')[0]!;
      const codes = await lint(fixture);
      expect(codes).toContain(rule);
      expect(codes.filter((c) => c.startsWith('forms-') && c !== rule)).toEqual([]);
    },
    60_000,
  );
});
