// The reference on the site reads without the spec's citations of the service's code (they are
// evidence, listed on the "Known differences" page), without code marks in its plain-text server
// fields and without JSON's safe-integer bound shown as an id's range; the spec keeps all of it.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { readDriftLedger } from '@forms-api/spec/drift';
import { knownDifferencesGuide } from '../src/known-differences.ts';
import { referenceForSite, withoutCitations } from '../src/reference-text.ts';

const bundle = createRequire(import.meta.url)('@forms-api/spec/openapi.json');
const SOURCE_LINE = /\.php:\d/;

describe('the reference as the site shows it', () => {
  const { spec, citations } = referenceForSite(bundle);

  it('has no file and line of the service in any description, and the spec still has them', () => {
    const descriptions: string[] = [];
    JSON.stringify(spec, (key, value) => {
      if (key === 'description' && typeof value === 'string') descriptions.push(value);
      return value;
    });
    expect(descriptions.filter((d) => SOURCE_LINE.test(d))).toEqual([]);
    expect(JSON.stringify(bundle)).toMatch(SOURCE_LINE);
    expect(citations.length).toBeGreaterThan(15);
    expect(spec.components.parameters.FormId.description).not.toContain('aee613da');
  });

  it('keeps the words around a citation and drops only the citation and its separator', () => {
    expect(withoutCitations('as stored (the stored time, Resource.php:60 at aee613da).').text).toBe(
      'as stored (the stored time).',
    );
    expect(withoutCitations('a 404 (A.php:54,68 and\nB.php:19 at aee613da). Send digits.').text).toBe(
      'a 404. Send digits.',
    );
    expect(withoutCitations('checked (when saved; A.php:1-2, B.php:3 at aee613da) too').found).toEqual([
      { lines: 'A.php:1-2, B.php:3', commit: 'aee613da' },
    ]);
  });

  it('lists every citation on the Known differences page, with where it was', () => {
    const page = knownDifferencesGuide(readDriftLedger(), { kind: 'not-run', path: 'r.json' }, citations);
    if (!page.ok) throw page.error;
    const body = page.value.body;
    expect(body).toContain("## Where the reference's observations come from");
    for (const c of citations) expect(body).toContain(`- \`${c.where}\`: \`${c.lines}\` at \`${c.commit}\``);
    expect(body).toContain('`parameter FormId`: `AppServiceProvider.php:59-70`');
  });

  it('shows no 9007199254740991 maximum on ids, and keeps their minimum', () => {
    expect(JSON.stringify(spec)).not.toContain('9007199254740991');
    expect(JSON.stringify(bundle)).toContain('9007199254740991');
    expect(spec.components.schemas.Id?.minimum ?? spec.components.parameters.FormId.schema.minimum).toBe(1);
  });

  it('writes the server texts, which Redoc shows as plain text, without code marks', () => {
    const texts = spec.servers.flatMap((s: any) => [
      s.description,
      ...Object.values<any>(s.variables ?? {}).map((v) => v.description),
    ]);
    expect(texts.join(' ')).not.toContain('`');
    expect(bundle.servers[0].description).toContain('`base_url`');
  });
});
