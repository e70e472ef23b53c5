// The schema rules, by direction. A request schema may only widen (clients keep sending what
// they sent); a response schema, or a webhook payload, may only narrow or add optional fields
// (clients keep understanding what they receive).
import type { BreakingChange, Direction, Json } from './types.js';

export interface Doc {
  root: Json;
}

/** Follows local `$ref`s (`#/components/...`) within one document. */
export function deref(doc: Doc, node: unknown): Json | undefined {
  let current = node as Json | undefined;
  const seen = new Set<string>();
  while (current && typeof current.$ref === 'string') {
    const ref: string = current.$ref;
    if (seen.has(ref) || !ref.startsWith('#/')) return current;
    seen.add(ref);
    current = ref
      .slice(2)
      .split('/')
      .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<any>((acc, seg) => acc?.[seg], doc.root);
  }
  return current;
}

function typesOf(schema: Json): string[] | undefined {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return [...schema.type].sort();
  return undefined;
}

const show = (value: unknown): string => (value === undefined ? '(none)' : JSON.stringify(value));
const join = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

interface Walk {
  before: Doc;
  after: Doc;
  direction: Direction;
  location: string;
  out: BreakingChange[];
  seen: Set<string>;
}

export function compareSchemas(
  before: Doc,
  after: Doc,
  beforeSchema: unknown,
  afterSchema: unknown,
  direction: Direction,
  location: string,
): BreakingChange[] {
  const out: BreakingChange[] = [];
  walk({ before, after, direction, location, out, seen: new Set() }, beforeSchema, afterSchema, '');
  return out;
}

function walk(w: Walk, rawBefore: unknown, rawAfter: unknown, path: string): void {
  const b = deref(w.before, rawBefore);
  const a = deref(w.after, rawAfter);
  if (!b || !a || typeof b !== 'object' || typeof a !== 'object') return;
  // Recursive schemas: compare each pair of named components once (the first path reports).
  const bRef = (rawBefore as Json).$ref;
  const aRef = (rawAfter as Json).$ref;
  if (typeof bRef === 'string' && typeof aRef === 'string') {
    const pair = `${bRef}|${aRef}`;
    if (w.seen.has(pair)) return;
    w.seen.add(pair);
  }
  const where = path === '' ? w.location : `${w.location}: ${path}`;
  const report = (rule: BreakingChange['rule'], before: string, after: string) =>
    w.out.push({ rule, location: where, before, after });

  const bTypes = typesOf(b);
  const aTypes = typesOf(a);
  if (bTypes && aTypes) {
    if (
      w.direction === 'request' &&
      bTypes.some((t) => !aTypes.includes(t) && !(t === 'integer' && aTypes.includes('number')))
    ) {
      report('request-type-narrowed', show(b.type), show(a.type));
    }
    if (
      w.direction === 'response' &&
      aTypes.some((t) => !bTypes.includes(t) && !(t === 'integer' && bTypes.includes('number')))
    ) {
      report('response-type-changed', show(b.type), show(a.type));
    }
  }

  const bEnum: unknown[] | undefined = Array.isArray(b.enum) ? b.enum : 'const' in b ? [b.const] : undefined;
  const aEnum: unknown[] | undefined = Array.isArray(a.enum) ? a.enum : 'const' in a ? [a.const] : undefined;
  const has = (list: unknown[], v: unknown) => list.some((x) => JSON.stringify(x) === JSON.stringify(v));
  if (w.direction === 'request' && aEnum && (!bEnum || bEnum.some((v) => !has(aEnum, v)))) {
    report('request-enum-narrowed', show(bEnum), show(aEnum));
  }
  if (w.direction === 'response' && bEnum && (!aEnum || aEnum.some((v) => !has(bEnum, v)))) {
    report('response-enum-widened', show(bEnum), show(aEnum));
  }

  const bProps: Json = b.properties ?? {};
  const aProps: Json = a.properties ?? {};
  const bRequired = new Set<string>(b.required ?? []);
  const aRequired = new Set<string>(a.required ?? []);
  for (const name of Object.keys(bProps)) {
    const field = join(path, name);
    if (!(name in aProps)) {
      w.out.push({
        rule: w.direction === 'request' ? 'request-property-removed' : 'response-property-removed',
        location: `${w.location}: ${field}`,
        before: bRequired.has(name) ? 'required' : 'optional',
        after: '(removed)',
      });
      continue;
    }
    if (w.direction === 'response' && bRequired.has(name) && !aRequired.has(name)) {
      w.out.push({
        rule: 'response-property-became-optional',
        location: `${w.location}: ${field}`,
        before: 'required',
        after: 'optional',
      });
    }
    if (w.direction === 'request' && !bRequired.has(name) && aRequired.has(name)) {
      w.out.push({
        rule: 'request-property-became-required',
        location: `${w.location}: ${field}`,
        before: 'optional',
        after: 'required',
      });
    }
    walk(w, bProps[name], aProps[name], field);
  }
  if (w.direction === 'request') {
    for (const name of aRequired) {
      if (!bRequired.has(name) && !(name in bProps)) {
        w.out.push({
          rule: 'request-property-became-required',
          location: `${w.location}: ${join(path, name)}`,
          before: '(absent)',
          after: 'required',
        });
      }
    }
  }

  if (b.items || a.items) walk(w, b.items, a.items, `${path}[]`);
  if (typeof b.additionalProperties === 'object' && typeof a.additionalProperties === 'object') {
    walk(w, b.additionalProperties, a.additionalProperties, `${path}{*}`);
  }
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    if (Array.isArray(b[key]) && Array.isArray(a[key])) {
      b[key].forEach((sub: unknown, i: number) => walk(w, sub, a[key][i], `${path}(${key}[${i}])`));
    }
  }
}
