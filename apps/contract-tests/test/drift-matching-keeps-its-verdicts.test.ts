// The drift matcher's verdicts, stated as expectations rather than as a second matcher: vectors
// of a small ledger × failures with the verdict each must get, then properties over generated
// failures (explained errors alone are known drift; one unexplained error makes it a failure).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DriftMatch } from '@forms-api/spec/drift';
import { matchFailure, type MatchableLedger } from '../src/drift.js';
import type { ErrorObject, Failure, Situation } from '../src/model.js';

const entry = (id: string, match: DriftMatch[]) => ({ id, match });

const LEDGER: MatchableLedger = {
  entries: [
    entry('summary-key-missing', [
      {
        kind: 'schema',
        operationId: 'listThings',
        instancePath: '^/data/\\d+$',
        keyword: 'required',
        properties: ['is_pro'],
      },
    ]),
    entry('tags-null', [
      { kind: 'schema', operationId: 'listThings', instancePath: '^/data/\\d+/tags$', keyword: 'type' },
    ]),
    // Later in the ledger and broader: explains what the entry above does not.
    entry('tags-anything', [
      { kind: 'schema', operationId: 'listThings', instancePath: '^/data/\\d+/tags$', keyword: '.+' },
    ]),
    entry('meta-extended', [
      {
        kind: 'schema',
        operationId: 'listThings',
        instancePath: '^/meta$',
        keyword: '(additional|unevaluated)Properties',
        properties: ['links', 'to'],
      },
    ]),
    entry('negative-per-page', [
      {
        kind: 'schema',
        operationId: 'listThings',
        instancePath: '^/meta/per_page$',
        keyword: 'minimum',
        when: { query: { per_page: '^-\\d' } },
      },
    ]),
    entry('closed-form-refused', [
      { kind: 'status', operationId: 'answer', expected: [200], received: [403], when: { traits: ['closed-form'] } },
    ]),
    entry('integrations-token-refused', [
      {
        kind: 'status',
        operationId: 'getThing',
        expected: [200],
        received: [403],
        when: { abilities: { includes: ['manage-integrations'] } },
      },
    ]),
    entry('update-drops-answers', [{ kind: 'behaviour', operationId: 'updateThing', observation: 'answers-dropped' }]),
  ],
};

const err = (instancePath: string, keyword: string, params: Record<string, unknown> = {}): ErrorObject => ({
  instancePath,
  keyword,
  params,
  schemaPath: '#',
  message: 'test',
});
const situation = (s: Partial<Situation> = {}): Situation => ({ query: {}, traits: [], ...s });
const schema = (errors: ErrorObject[], operationId = 'listThings', s?: Situation): Failure => ({
  kind: 'schema',
  message: 'test',
  operationId,
  schemaErrors: errors,
  ...(s ? { situation: s } : {}),
});

const keyMissing = err('/data/0', 'required', { missingProperty: 'is_pro' });
const otherKeyMissing = err('/data/0', 'required', { missingProperty: 'share_url' });
const tagsNull = err('/data/3/tags', 'type');
const tagsBadEnum = err('/data/3/tags', 'enum');
const metaLinks = err('/meta', 'unevaluatedProperties', { unevaluatedProperty: 'links' });
const metaPath = err('/meta', 'additionalProperties', { additionalProperty: 'path' });
const perPage = err('/meta/per_page', 'minimum');

const vectors: { name: string; failure: Failure; known: boolean; entryIds: string[]; unexplained: ErrorObject[] }[] = [
  {
    name: 'a key the entry names',
    failure: schema([keyMissing]),
    known: true,
    entryIds: ['summary-key-missing'],
    unexplained: [],
  },
  {
    name: 'a key the entry does not name',
    failure: schema([otherKeyMissing]),
    known: false,
    entryIds: [],
    unexplained: [otherKeyMissing],
  },
  {
    name: 'the named key deeper than the anchored path',
    failure: schema([err('/data/0/x', 'required', { missingProperty: 'is_pro' })]),
    known: false,
    entryIds: [],
    unexplained: [err('/data/0/x', 'required', { missingProperty: 'is_pro' })],
  },
  {
    name: 'two errors, two entries',
    failure: schema([tagsNull, keyMissing]),
    known: true,
    entryIds: ['tags-null', 'summary-key-missing'],
    unexplained: [],
  },
  {
    name: 'the first entry that explains an error wins',
    failure: schema([tagsNull]),
    known: true,
    entryIds: ['tags-null'],
    unexplained: [],
  },
  {
    name: 'a later, broader entry explains the rest',
    failure: schema([tagsBadEnum]),
    known: true,
    entryIds: ['tags-anything'],
    unexplained: [],
  },
  {
    name: 'an explained error and an unexplained one',
    failure: schema([keyMissing, metaPath]),
    known: false,
    entryIds: ['summary-key-missing'],
    unexplained: [metaPath],
  },
  {
    name: 'a keyword alternative with a named key',
    failure: schema([metaLinks]),
    known: true,
    entryIds: ['meta-extended'],
    unexplained: [],
  },
  {
    name: 'a combinator above an explained error',
    failure: schema([err('/data/3', 'anyOf'), tagsNull]),
    known: true,
    entryIds: ['tags-null'],
    unexplained: [],
  },
  {
    name: 'a combinator above nothing explained',
    failure: schema([err('/meta', 'anyOf'), tagsNull]),
    known: false,
    entryIds: ['tags-null'],
    unexplained: [err('/meta', 'anyOf')],
  },
  {
    name: 'a combinator alone',
    failure: schema([err('/data/3', 'oneOf')]),
    known: false,
    entryIds: [],
    unexplained: [err('/data/3', 'oneOf')],
  },
  {
    name: 'the same error on another operation',
    failure: schema([tagsNull], 'getThing'),
    known: false,
    entryIds: [],
    unexplained: [tagsNull],
  },
  { name: 'no errors', failure: schema([]), known: false, entryIds: [], unexplained: [] },
  {
    name: 'a schema error in the situation its entry names',
    failure: schema([perPage], 'listThings', situation({ query: { per_page: '-5' } })),
    known: true,
    entryIds: ['negative-per-page'],
    unexplained: [],
  },
  {
    name: 'the same error in another situation',
    failure: schema([perPage], 'listThings', situation({ query: { per_page: '101' } })),
    known: false,
    entryIds: [],
    unexplained: [perPage],
  },
  {
    name: 'the same error with no situation',
    failure: schema([perPage]),
    known: false,
    entryIds: [],
    unexplained: [perPage],
  },
  ...(
    [
      [
        'a status with the trait its entry names',
        'answer',
        403,
        situation({ traits: ['closed-form'] }),
        ['closed-form-refused'],
      ],
      ['a status without the trait', 'answer', 403, situation(), []],
      ['another received status', 'answer', 404, situation({ traits: ['closed-form'] }), []],
      [
        'a status to a token with the ability its entry names',
        'getThing',
        403,
        situation({ abilities: ['forms-read', 'manage-integrations'] }),
        ['integrations-token-refused'],
      ],
      ['a status to a token without it', 'getThing', 403, situation({ abilities: ['forms-read'] }), []],
      ['a status to no token', 'getThing', 403, situation({ abilities: null }), []],
    ] as const
  ).map(([name, operationId, receivedStatus, s, entryIds]) => ({
    name,
    failure: {
      kind: 'status',
      message: 'test',
      operationId,
      expectedStatus: [200],
      receivedStatus,
      situation: s,
    } as Failure,
    known: entryIds.length > 0,
    entryIds: [...entryIds],
    unexplained: [],
  })),
  {
    name: 'an observation the ledger names',
    failure: { kind: 'behaviour', message: 'test', operationId: 'updateThing', observation: 'answers-dropped' },
    known: true,
    entryIds: ['update-drops-answers'],
    unexplained: [],
  },
  {
    name: 'another observation',
    failure: { kind: 'behaviour', message: 'test', operationId: 'updateThing', observation: 'answers-kept' },
    known: false,
    entryIds: [],
    unexplained: [],
  },
  {
    name: 'a transport failure',
    failure: { kind: 'transport', message: 'test', operationId: 'listThings' } as Failure,
    known: false,
    entryIds: [],
    unexplained: [],
  },
];

describe('drift matching verdicts', () => {
  it.each(vectors)('$name', ({ failure, known, entryIds, unexplained }) => {
    expect(matchFailure(LEDGER, failure)).toEqual({ known, entryIds, unexplained });
  });
});

// Errors one entry of LEDGER explains (with no situation), and errors none does.
const index = fc.nat({ max: 999 });
const explained: fc.Arbitrary<ErrorObject> = fc.oneof(
  index.chain((i) => fc.constantFrom(err(`/data/${i}`, 'required', { missingProperty: 'is_pro' }))),
  fc.tuple(index, fc.constantFrom('type', 'enum', 'format')).map(([i, k]) => err(`/data/${i}/tags`, k)),
  fc
    .tuple(fc.constantFrom('additionalProperties', 'unevaluatedProperties'), fc.constantFrom('links', 'to'))
    .map(([k, p]) =>
      err('/meta', k, k === 'additionalProperties' ? { additionalProperty: p } : { unevaluatedProperty: p }),
    ),
);
const unexplainedError: fc.Arbitrary<ErrorObject> = fc.oneof(
  index.map((i) => err(`/data/${i}`, 'required', { missingProperty: 'share_url' })),
  index.map((i) => err(`/data/${i}/name`, 'type')),
  fc.constantFrom('path', 'from').map((p) => err('/meta', 'additionalProperties', { additionalProperty: p })),
  fc.constant(err('/meta/per_page', 'minimum')),
  fc.constant(err('', 'required', { missingProperty: 'data' })),
);

describe('drift matching properties', () => {
  it('explained errors alone, in any number and order, are known drift with nothing left over', () => {
    fc.assert(
      fc.property(fc.array(explained, { minLength: 1, maxLength: 30 }), (errors) => {
        const verdict = matchFailure(LEDGER, schema(errors));
        expect(verdict.known).toBe(true);
        expect(verdict.unexplained).toEqual([]);
        expect(verdict.entryIds.length).toBeGreaterThan(0);
      }),
    );
  });

  it('one unexplained error among explained ones makes a real failure that names exactly the unexplained ones', () => {
    fc.assert(
      fc.property(
        fc.array(explained, { maxLength: 20 }),
        fc.array(unexplainedError, { minLength: 1, maxLength: 5 }),
        fc.nat(),
        (known, unknown, seed) => {
          const errors = [...known];
          for (const [i, e] of unknown.entries()) errors.splice((seed + i * 7) % (errors.length + 1), 0, e);
          const verdict = matchFailure(LEDGER, schema(errors));
          expect(verdict.known).toBe(false);
          // The very error objects no entry explains, in the order the failure listed them.
          expect(verdict.unexplained).toEqual(errors.filter((e) => unknown.includes(e)));
          verdict.unexplained.forEach((e) => expect(unknown).toContain(e));
        },
      ),
    );
  });
});
