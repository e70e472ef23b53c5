// Where the service's own published reference and its code disagree (the ledger's `referenceDrift`),
// each entry quotes the reference with its page and line, cites the code's lines, and names places of
// the bundled spec that say the code's side, which hold. The reference itself is not here (no copy,
// no network in CI): the quotes' shape is checked here, their text by scripts/reference-quotes.mjs
// against a git copy of the service, whose matching is tested below on files made from the quotes.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { referenceQuoteProblems } from '../scripts/reference-quotes.mjs';
import { bundle, operations, readJson } from './load-bundle.js';

const ledger = readJson('dist/drift.json');
const reference: any[] = ledger.referenceDrift;
const operationsById = new Map([...operations()].map((o) => [o.operation.operationId, o.operation]));

const MISSING = Symbol('missing');

/** The value at a JSON pointer of the bundle, following `$ref`s on the way and at the end. */
function at(pointer: string): unknown {
  const follow = (node: any): any => {
    let current = node;
    for (let hops = 0; current?.$ref && hops < 20; hops++) current = at(current.$ref.slice(1));
    return current;
  };
  let node: any = bundle;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    node = follow(node);
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return MISSING;
    node = node[key];
  }
  return follow(node);
}

/** Why a statement of the spec does not hold, or undefined when it does. */
function statementProblem(statement: any): string | undefined {
  const value = at(statement.at);
  if (statement.absent) return value === MISSING ? undefined : `${statement.at} is present`;
  if (value === MISSING) return `${statement.at} is absent`;
  if ('equals' in statement) {
    try {
      expect(value).toEqual(statement.equals);
      return undefined;
    } catch {
      return `${statement.at} is ${JSON.stringify(value)}, not ${JSON.stringify(statement.equals)}`;
    }
  }
  return typeof value === 'string' && value.includes(statement.mentions)
    ? undefined
    : `${statement.at} does not mention ${JSON.stringify(statement.mentions)}`;
}

const validate = (() => {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  return ajv.compile(readJson('drift.schema.json'));
})();
const { $comment: _generated, ...body } = ledger;
/** The ledger with its first reference entry changed by `change`, as the schema judges it. */
function validWith(change: (entry: any) => void): boolean {
  const copy = structuredClone(body);
  change(copy.referenceDrift[0]);
  return validate(copy);
}

describe("the ledger's reference drift", () => {
  it('records the twenty disagreements between the reference and the code of the new operations', () => {
    expect(reference).toHaveLength(20);
  });

  it('has ids unique across the whole ledger', () => {
    const ids = [...ledger.entries, ...reference].map((e: any) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(reference.map((e) => [e.id, e]))(
    '%s quotes the reference and cites the code at the pinned commit, and names operations the spec observes',
    (_id, entry: any) => {
      const { repo, commit } = ledger.upstream;
      expect(entry.referenceQuotes.length).toBeGreaterThan(0);
      for (const q of entry.referenceQuotes) {
        expect({ repo: q.repo, commit: q.commit }).toEqual({ repo, commit });
        expect(q.path).toMatch(/^docs\/api-reference\/.+\.mdx$/);
      }
      expect(entry.evidence.sources.length).toBeGreaterThan(0);
      for (const s of entry.evidence.sources) {
        expect({ repo: s.repo, commit: s.commit }).toEqual({ repo, commit });
        expect(s.path, 'the code side is the service code, not its reference').toMatch(/^api\//);
      }
      for (const id of entry.operationIds) {
        expect(operationsById.has(id), id).toBe(true);
        // The spec describes the operation from the code, which the published contract does not show.
        expect(operationsById.get(id)['x-observed'], id).toBe(true);
      }
      expect(entry).not.toHaveProperty('match');
    },
  );

  it.each(reference.map((e) => [e.id, e]))("%s: the spec says the code's side", (_id, entry: any) => {
    expect(entry.spec.map(statementProblem).filter(Boolean)).toEqual([]);
  });

  it('refuses a statement of the spec that does not hold', () => {
    const form = '/paths/~1open~1forms/post/responses';
    expect(statementProblem({ at: `${form}/201`, absent: true })).toBeUndefined();
    expect(statementProblem({ at: `${form}/200`, absent: true })).toMatch(/is present/);
    expect(statementProblem({ at: `${form}/201/description`, mentions: 'Created' })).toMatch(/is absent/);
    expect(statementProblem({ at: '/components/schemas/FormInput/properties/title/maxLength', equals: 60 })).toMatch(
      /is 255, not 60/,
    );
    expect(statementProblem({ at: `${form}/200/content/application~1json/schema/title`, equals: 'FormSaved' })).toBe(
      undefined,
    );
    expect(statementProblem({ at: `${form}/403/description`, mentions: 'workspace_id' })).toMatch(/does not mention/);
  });

  it('refuses a citation of the reference that is not a short quote of one of its pages', () => {
    expect(validWith(() => {})).toBe(true);
    expect(validWith((e) => (e.referenceQuotes[0].path = 'api/app/Http/Controllers/Controller.php'))).toBe(false);
    expect(validWith((e) => (e.referenceQuotes[0].path = 'docs/api-reference/../README.md'))).toBe(false);
    expect(validWith((e) => (e.referenceQuotes[0].line = 0))).toBe(false);
    expect(validWith((e) => (e.referenceQuotes[0].quote = 'one line\nand another'))).toBe(false);
    expect(validWith((e) => (e.referenceQuotes[0].quote = ` ${e.referenceQuotes[0].quote}`))).toBe(false);
    expect(validWith((e) => (e.referenceQuotes[0].quote = 'word '.repeat(40).trim()))).toBe(false);
    expect(validWith((e) => (e.referenceQuotes = []))).toBe(false);
    expect(validWith((e) => delete e.evidence)).toBe(false);
    expect(validWith((e) => delete e.spec)).toBe(false);
    expect(validWith((e) => (e.spec[0] = { at: e.spec[0].at, absent: true, mentions: 'both' }))).toBe(false);
    // Nothing for the contract suite to match: the service follows the spec here.
    expect(validWith((e) => (e.match = []))).toBe(false);
  });

  describe('scripts/reference-quotes.mjs', () => {
    // Files holding each quote on its cited line, amid lines of other text: the reference as far as
    // the ledger knows it, padded the way a Markdown table pads its cells.
    const files = new Map<string, string[]>();
    for (const entry of reference)
      for (const q of entry.referenceQuotes) {
        const lines = files.get(q.path) ?? [];
        while (lines.length < q.line) lines.push('other text');
        lines[q.line - 1] = `| ${q.quote.replaceAll(' ', '   ')} |`;
        files.set(q.path, lines);
      }
    const reader =
      (edit: (path: string, lines: string[]) => string[] = (_p, l) => l) =>
      (commit: string, path: string) =>
        commit === ledger.upstream.commit && files.has(path) ? edit(path, [...files.get(path)!]).join('\n') : undefined;
    const [first] = reference;
    const firstQuote = first.referenceQuotes[0];

    it('finds every quote on its line', () => {
      expect(referenceQuoteProblems(ledger, reader())).toEqual([]);
    });

    it('reports a quote one line off, a changed word, and a page the commit does not have', () => {
      const off = reader((path, lines) => (path === firstQuote.path ? ['new first line', ...lines] : lines));
      expect(referenceQuoteProblems(ledger, off)).toContain(
        `${first.id}: ${firstQuote.path}:${firstQuote.line}: the line does not hold the quote ${JSON.stringify(firstQuote.quote)}`,
      );
      const reworded = reader((path, lines) =>
        path === firstQuote.path
          ? lines.map((l, i) => (i === firstQuote.line - 1 ? l.replace(/\w+/, 'Other') : l))
          : lines,
      );
      expect(referenceQuoteProblems(ledger, reworded).length).toBeGreaterThan(0);
      const moved = structuredClone(ledger);
      moved.referenceDrift[0].referenceQuotes[0].path = 'docs/api-reference/forms/no-such-page.mdx';
      expect(referenceQuoteProblems(moved, reader())).toEqual([
        `${first.id}: docs/api-reference/forms/no-such-page.mdx:${firstQuote.line}: no such file at ${ledger.upstream.commit.slice(0, 8)}`,
      ]);
    });
  });
});
