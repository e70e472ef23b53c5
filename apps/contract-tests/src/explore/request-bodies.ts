// The request bodies the explorer sends: generated from the spec's schemas and made safe, a valid
// base for the few bodies the spec cannot make safe or fit on its own (with the submission under
// test they are built from), and the bodies a schema forbids, built from such a base.
import fc from 'fast-check';
import type { SpecOperation } from '@forms-api/spec/operations';
import type { CheckContext } from '../check-context.js';
import type { SpecArtifacts } from '../spec.js';
import { answersToSendBack, findSubmission, formFields, integrationBody, stringField } from '../suites/helpers.js';
import type { LabelledValue, Schema, SchemaArbitraries } from './schema-arbitrary.js';

const EXAMPLE_URL = 'https://example.com/forms-api-contract-test';

/**
 * The request bodies the spec cannot make safe or fit on its own, by request schema (never by
 * operation, so a new operation with one of these bodies is explored unchanged): an integration
 * stays inactive and calls no real address; a submission's answers must fit its form's fields,
 * which only the tenant knows, so they are the submission under test's own (`Setup`). A schema not
 * named here is sent as generated.
 */
export const REQUEST_BODIES: Record<
  string,
  {
    /** Makes a generated valid body safe to send. */
    readonly safe: (body: any) => unknown;
    /** A valid body to start from (forbidden bodies, writes without the right), or undefined when the target cannot give one. */
    readonly base: (setup?: Setup) => Record<string, any> | undefined;
    /** The base with a change a read-back can see. */
    readonly changed: (setup: Setup) => Record<string, any> | undefined;
  }
> = {
  WebhookIntegrationInput: {
    safe: (body) => ({ ...body, status: 'inactive', data: { ...body?.data, webhook_url: EXAMPLE_URL } }),
    base: () => integrationBody(),
    changed: () => integrationBody({ webhook_url: CHANGED_URL }),
  },
  SubmissionUpdate: {
    safe: (body) => body,
    base: (s) => (s?.original ? answersToSendBack(s.original, s.fields) : undefined),
    changed: (s) =>
      s.original && s.changedField
        ? { ...answersToSendBack(s.original, s.fields), [s.changedField]: 'changed by an unauthorised write' }
        : undefined,
  },
};
const CHANGED_URL = `${EXAMPLE_URL}/changed`;

/**
 * The bodies the explorer sends `op` where it expects success: generated from its schema (the spec
 * must call valid only what the service accepts) and made safe (undefined when it takes none).
 */
export function generatedBodyOf(arbitraries: SchemaArbitraries, op: SpecOperation): fc.Arbitrary<unknown> {
  if (!op.jsonBody) return fc.constant(undefined);
  const safe = REQUEST_BODIES[bodySchemaName(op) ?? '']?.safe ?? ((body: unknown) => body);
  return arbitraries.valid(op.jsonBody.schema as Schema).map(safe);
}

/** The name of an operation's request body schema (`#/components/schemas/<name>`). */
export function bodySchemaName(op: SpecOperation): string | undefined {
  const ref = op.jsonBody?.schema.$ref;
  return typeof ref === 'string' ? ref.split('/').at(-1) : undefined;
}
/** Makes a body safe to send to `op` (an integration inactive, calling no real address). */
export const safeBody = (op: SpecOperation, body: unknown): unknown =>
  (REQUEST_BODIES[bodySchemaName(op) ?? '']?.safe ?? ((b: unknown) => b))(body);

/** What the write checks need of the target: its submission under test (with its form's fields), when one is set and found. */
export interface Setup {
  readonly submissionId: number | undefined;
  readonly original: Awaited<ReturnType<typeof findSubmission>>;
  readonly fields: Awaited<ReturnType<typeof formFields>>;
  readonly changedField: string | undefined;
}

export async function setUp(ctx: CheckContext): Promise<Setup> {
  const submissionId = ctx.target.ids.submissionId;
  const original = submissionId === undefined ? undefined : await findSubmission(ctx, submissionId);
  const fields = original ? await formFields(ctx) : [];
  return { submissionId, original, fields, changedField: original ? stringField(original, fields) : undefined };
}

/** Values a server should refuse in place of a member, whatever the member's schema (the validator says which it forbids). */
const FOREIGN_SHAPES: LabelledValue[] = [
  { label: 'text', value: 'text' },
  { label: 'number as text', value: '17' },
  { label: 'integer', value: 17 },
  { label: 'fraction', value: 1.5 },
  { label: 'boolean', value: true },
  { label: 'null', value: null },
  { label: 'empty array', value: [] },
  { label: 'array for a scalar', value: ['text'] },
  { label: 'array of arrays', value: [[1]] },
  { label: 'array of booleans', value: [true] },
  { label: 'object', value: { nested: 'text' } },
];

/** A JSON pointer (RFC 6901) to the place the keys name. */
const pointer = (...keys: string[]): string =>
  keys.map((k) => `/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');

/**
 * Bodies the schema `name` forbids, built from a valid `base` body: the whole body of a wrong type,
 * each required member missing, and each member (and each member of an object member) replaced by
 * a forbidden, edge or hostile value from the converter, or a value of another shape. Only bodies
 * the spec's validator refuses are kept, each with a label saying what was changed.
 */
export function forbiddenBodies(
  spec: SpecArtifacts,
  arbitraries: SchemaArbitraries,
  name: string,
  base: Record<string, any>,
): Array<{ label: string; body: unknown; at: string }> {
  const ref = { $ref: `#/components/schemas/${name}` };
  const schema = arbitraries.resolve(ref) as Record<string, any>;
  const replacements = (member: Schema): LabelledValue[] => [
    ...arbitraries.invalid(member),
    ...arbitraries.boundaries(member),
    ...arbitraries.hostile(member),
    ...FOREIGN_SHAPES,
  ];
  // `at`: the JSON pointer of the place the case makes forbidden ('' for the body as a whole).
  const out: Array<{ label: string; body: unknown; at: string }> = arbitraries
    .invalid(ref)
    .filter((v) => !v.label.startsWith('missing required') && !v.label.startsWith('unknown member'))
    .map((v) => ({ label: `body: ${v.label}`, body: v.value, at: '' }));
  for (const required of (schema.required ?? []) as string[]) {
    const { [required]: _dropped, ...rest } = base;
    out.push({ label: `missing required ${required}`, body: rest, at: pointer(required) });
  }
  const members: Array<[string, Schema]> = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
  // A map's values (answers by field id): each answer the base holds stands for them all, so take the first.
  const firstKey = Object.keys(base).find((k) => !(k in (schema.properties ?? {})));
  if (firstKey && schema.additionalProperties && typeof schema.additionalProperties === 'object')
    members.push([firstKey, schema.additionalProperties]);
  for (const [member, memberSchema] of members) {
    for (const v of replacements(memberSchema))
      out.push({ label: `${member}: ${v.label}`, body: { ...base, [member]: v.value }, at: pointer(member) });
    const inner = arbitraries.resolve(memberSchema) as Record<string, any>;
    const innerBase = base[member];
    if (typeof inner !== 'object' || !inner.properties || !innerBase || typeof innerBase !== 'object') continue;
    for (const [key, keySchema] of Object.entries(inner.properties as Record<string, Schema>))
      for (const v of replacements(keySchema))
        out.push({
          label: `${member}.${key}: ${v.label}`,
          body: { ...base, [member]: { ...innerBase, [key]: v.value } },
          at: pointer(member, key),
        });
  }
  const seen = new Set<string>();
  return out.filter((c) => {
    const key = JSON.stringify(c.body);
    if (key === undefined || seen.has(key)) return false;
    seen.add(key);
    return !spec.validator.validateSchema(`explore body ${name}`, ref, c.body).valid;
  });
}
