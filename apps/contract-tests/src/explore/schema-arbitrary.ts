// JSON Schema 2020-12 -> fast-check: values a schema allows (an arbitrary, shrinkable), its boundary
// values, and values it forbids, for the keywords this spec uses (type, const, enum, minimum/maximum,
// minLength/maxLength, pattern, format, items, minItems/maxItems, properties, required,
// additionalProperties, propertyNames, minProperties/maxProperties, anyOf/oneOf, allOf of object
// parts, not, $ref).
// No maintained npm package does this for 2020-12; a keyword it does not know is ignored, so what it
// produces is judged by the spec's own validator before the explorer relies on a verdict.
import fc from 'fast-check';
import { ContractTestsError } from '../errors.js';

export type Schema = boolean | { readonly [keyword: string]: any };

/** A value chosen to sit on or past an edge of the schema, and which edge. */
export interface LabelledValue {
  readonly label: string;
  readonly value: unknown;
}

/** How deep generated objects and arrays nest before the smallest allowed value is used. */
const MAX_DEPTH = 4;
/** Longest generated string and array where the schema sets no maximum (requests stay small). */
const LONGEST_FREE_STRING = 40;
const LONGEST_FREE_ARRAY = 4;
/**
 * A "very long" string: four times any string the spec bounds (255), yet short enough that an
 * answer echoing it in its pagination links stays within the spec's own bound on a link (4096).
 */
export const VERY_LONG = 1_024;
const CONTROL_CHARACTERS = ['a\u0000b', '\u001b[31mred\u001b[0m', 'line\r\nbreak', '\u202eevil', '\u0007'];

export interface SchemaArbitraries {
  /** Values the schema allows. */
  valid(schema: Schema): fc.Arbitrary<unknown>;
  /** Values on and just past each edge the schema sets (minimum-1, minimum, maximum, maximum+1, empty, longest, …). */
  boundaries(schema: Schema): LabelledValue[];
  /** Values the schema forbids: wrong types, numbers as text, arrays for scalars, outside enums, missing required members, unknown members. */
  invalid(schema: Schema): LabelledValue[];
  /** Strings with NUL and other control characters, and a very long one (forbidden or not, the validator says). */
  hostile(schema: Schema): LabelledValue[];
  /** Follows `$ref`s into the document. */
  resolve(schema: Schema): Schema;
}

/** Arbitraries for schemas of `document` (the bundled OpenAPI, whose `#/components/...` refs they follow). */
export function schemaArbitraries(document: Record<string, any>): SchemaArbitraries {
  const resolve = (schema: Schema): Schema => {
    let current = schema;
    for (let hops = 0; typeof current === 'object' && typeof current.$ref === 'string'; hops++) {
      if (hops > 32) throw unsupportedSchema(`$ref cycle at ${current.$ref}`);
      const pointer: string = current.$ref;
      if (!pointer.startsWith('#/')) throw unsupportedSchema(`only local $refs are followed, not ${pointer}`);
      const target = pointer
        .slice(2)
        .split('/')
        .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
        .reduce<any>((node, segment) => node?.[segment], document);
      if (target === undefined) throw unsupportedSchema(`$ref ${pointer} names nothing in the document`);
      current = target;
    }
    return current;
  };

  const typesOf = (schema: Record<string, any>): string[] => {
    if (Array.isArray(schema.type)) return schema.type;
    if (typeof schema.type === 'string') return [schema.type];
    if (schema.properties || schema.required || schema.additionalProperties !== undefined) return ['object'];
    if (schema.items) return ['array'];
    if (schema.minLength !== undefined || schema.maxLength !== undefined || schema.pattern !== undefined)
      return ['string'];
    if (schema.minimum !== undefined || schema.maximum !== undefined) return ['number'];
    return [];
  };

  function stringArbitrary(s: Record<string, any>): fc.Arbitrary<string> {
    const minLength: number = s.minLength ?? 0;
    const maxLength: number = s.maxLength ?? Math.max(minLength, LONGEST_FREE_STRING);
    const within = (text: string) => [...text].length >= minLength && [...text].length <= maxLength;
    const pattern = s.pattern === undefined ? undefined : new RegExp(s.pattern, 'u');
    const byFormat = formatArbitrary(s.format);
    // A format generates well-formed values; a pattern beside it narrows them.
    if (byFormat) return byFormat.filter((text) => within(text) && (!pattern || pattern.test(text)));
    if (pattern) return fc.stringMatching(pattern).filter(within);
    return fc.string({
      minLength,
      maxLength: Math.min(maxLength, Math.max(minLength, LONGEST_FREE_STRING)),
      unit: 'grapheme-ascii',
    });
  }

  function formatArbitrary(format: string | undefined): fc.Arbitrary<string> | undefined {
    switch (format) {
      case 'uri':
        return fc.webUrl({ validSchemes: ['https'] });
      case 'email':
        return fc.emailAddress();
      case 'date-time':
        return fc
          .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
          .map((d) => d.toISOString());
      case 'uuid':
        return fc.uuid();
      default:
        return undefined;
    }
  }

  /** `not` as the spec uses it: a pattern, a const or an enum a value must not match. */
  function excluding(arbitrary: fc.Arbitrary<unknown>, not: Schema | undefined): fc.Arbitrary<unknown> {
    if (not === undefined) return arbitrary;
    const n = resolve(not);
    if (typeof n !== 'object') return n ? arbitrary.filter(() => false) : arbitrary;
    const pattern = n.pattern === undefined ? undefined : new RegExp(n.pattern, 'u');
    const forbidden: unknown[] = 'const' in n ? [n.const] : Array.isArray(n.enum) ? n.enum : [];
    return arbitrary.filter(
      (v) =>
        !(pattern && typeof v === 'string' && pattern.test(v)) &&
        !forbidden.some((f) => JSON.stringify(f) === JSON.stringify(v)),
    );
  }

  /** `allOf` as the spec uses it (object parts): one schema with every part's properties and required names. */
  function merged(schema: Schema): Schema {
    const s = resolve(schema);
    if (typeof s !== 'object' || !Array.isArray(s.allOf)) return s;
    const { allOf, ...own } = s;
    return [...(allOf as Schema[]).map(merged), own].reduce<Record<string, any>>(
      (whole, part) =>
        typeof part !== 'object'
          ? whole
          : {
              ...whole,
              ...part,
              properties: { ...whole.properties, ...part.properties },
              required: [...new Set([...(whole.required ?? []), ...(part.required ?? [])])],
            },
      {},
    );
  }

  function valid(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
    const s = merged(schema);
    return typeof s === 'object' && s.not !== undefined ? excluding(allowed(s, depth), s.not) : allowed(s, depth);
  }

  function allowed(s: Schema, depth: number): fc.Arbitrary<unknown> {
    if (s === true) return fc.jsonValue({ maxDepth: 1 });
    if (s === false) throw unsupportedSchema('the schema `false` allows no value');
    if ('const' in s) return fc.constant(s.const);
    if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
    const branches: Schema[] | undefined = s.anyOf ?? s.oneOf;
    if (branches) {
      const { anyOf: _a, oneOf: _o, ...rest } = s;
      return fc.oneof(...branches.map((b) => valid({ ...rest, ...(resolve(b) as object) }, depth)));
    }
    const types = typesOf(s);
    if (types.length === 0) return fc.jsonValue({ maxDepth: 1 });
    return fc.oneof(...types.map((type) => validOfType(s, type, depth)));
  }

  function validOfType(s: Record<string, any>, type: string, depth: number): fc.Arbitrary<unknown> {
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return fc.integer({ min: s.minimum ?? -(2 ** 31), max: s.maximum ?? 2 ** 31 - 1 });
      case 'number':
        return fc.double({ min: s.minimum ?? -1e9, max: s.maximum ?? 1e9, noNaN: true, noDefaultInfinity: true });
      case 'string':
        return stringArbitrary(s);
      case 'array': {
        const minLength: number = s.minItems ?? 0;
        const maxLength: number =
          depth >= MAX_DEPTH
            ? minLength
            : Math.min(s.maxItems ?? LONGEST_FREE_ARRAY, Math.max(minLength, LONGEST_FREE_ARRAY));
        return fc.array(valid(s.items ?? true, depth + 1), { minLength, maxLength });
      }
      case 'object': {
        const properties: Record<string, Schema> = s.properties ?? {};
        const required: string[] = s.required ?? [];
        const names = Object.keys(properties);
        const record =
          names.length > 0
            ? fc.record(Object.fromEntries(names.map((n) => [n, valid(properties[n]!, depth + 1)])), {
                requiredKeys: names.filter((n) => required.includes(n) || depth >= MAX_DEPTH),
              })
            : fc.constant({});
        const extra = s.additionalProperties;
        if (names.length > 0 || extra === false || extra === undefined || depth >= MAX_DEPTH) return record;
        // A map (answers by field id, headers by name): keys from propertyNames, values from additionalProperties.
        const key = s.propertyNames
          ? (valid(s.propertyNames, depth + 1) as fc.Arbitrary<string>)
          : fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme-ascii' });
        return fc.dictionary(key, valid(extra, depth + 1), {
          minKeys: s.minProperties ?? 0,
          maxKeys: Math.min(s.maxProperties ?? 3, 3),
        });
      }
      default:
        throw unsupportedSchema(`unknown type ${type}`);
    }
  }

  /** One allowed value (the smallest fast-check finds), to build variants of. */
  const example = (schema: Schema): unknown => fc.sample(valid(schema), { numRuns: 1, seed: 1 })[0];

  function boundaries(schema: Schema): LabelledValue[] {
    const s = resolve(schema);
    if (typeof s !== 'object') return [];
    const out: LabelledValue[] = [];
    const types = typesOf(s);
    if (types.includes('integer') || types.includes('number')) {
      if (s.minimum !== undefined)
        out.push({ label: 'minimum-1', value: s.minimum - 1 }, { label: 'minimum', value: s.minimum });
      if (s.maximum !== undefined)
        out.push({ label: 'maximum', value: s.maximum }, { label: 'maximum+1', value: s.maximum + 1 });
      out.push({ label: 'zero', value: 0 });
    }
    if (types.includes('string') && s.pattern === undefined && !s.format && !Array.isArray(s.enum)) {
      const min: number = s.minLength ?? 0;
      out.push({ label: 'empty', value: '' });
      if (min > 1)
        out.push({ label: 'minLength-1', value: 'a'.repeat(min - 1) }, { label: 'minLength', value: 'a'.repeat(min) });
      if (s.maxLength !== undefined)
        out.push(
          { label: 'longest (maxLength)', value: 'a'.repeat(s.maxLength) },
          { label: 'maxLength+1', value: 'a'.repeat(s.maxLength + 1) },
        );
    }
    if (types.includes('array')) {
      out.push({ label: 'empty array', value: [] });
      const item = example(s.items ?? true);
      if (s.maxItems !== undefined)
        out.push({ label: 'maxItems+1', value: Array.from({ length: s.maxItems + 1 }, () => item) });
    }
    return out;
  }

  function invalid(schema: Schema): LabelledValue[] {
    const s = resolve(schema);
    if (typeof s !== 'object') return [];
    const out: LabelledValue[] = [];
    const types = typesOf(s);
    const sample = example(s);
    const wrongTypes: Record<string, unknown> = {
      string: 'text',
      integer: 17,
      number: 1.5,
      boolean: true,
      null: null,
      array: [],
      object: {},
    };
    for (const [type, value] of Object.entries(wrongTypes)) {
      const allowed = types.includes(type) || (type === 'integer' && types.includes('number'));
      if (!allowed && types.length > 0) out.push({ label: `wrong type (${type})`, value });
    }
    if (types.includes('integer') || types.includes('number')) {
      if (typeof sample === 'number') out.push({ label: 'number as text', value: String(sample) });
      if (types.includes('integer') && !types.includes('number')) out.push({ label: 'fraction', value: 1.5 });
    }
    if (Array.isArray(s.enum) && s.enum.every((v: unknown) => typeof v === 'string'))
      out.push({ label: 'outside the enum', value: 'not-one-of-them' });
    if (types.some((t) => ['string', 'integer', 'number', 'boolean'].includes(t)) && !types.includes('array'))
      out.push({ label: 'array for a scalar', value: [sample] });
    if (types.includes('object') && sample && typeof sample === 'object' && !Array.isArray(sample)) {
      for (const name of (s.required ?? []) as string[]) {
        const { [name]: _dropped, ...rest } = sample as Record<string, unknown>;
        out.push({ label: `missing required ${name}`, value: rest });
      }
      if (s.additionalProperties === false)
        out.push({ label: 'unknown member', value: { ...(sample as object), not_in_the_schema: 1 } });
    }
    return out;
  }

  /** Strings a server must survive: forbidden only where the schema bounds length or pattern, so the validator decides. */
  function hostile(schema: Schema): LabelledValue[] {
    const s = resolve(schema);
    if (typeof s !== 'object' || !typesOf(s).includes('string')) return [];
    return [
      ...CONTROL_CHARACTERS.map((text) => ({ label: `control characters ${JSON.stringify(text)}`, value: text })),
      { label: 'very long string', value: 'x'.repeat(VERY_LONG) },
    ];
  }

  return { valid: (schema) => valid(schema), boundaries, invalid, hostile, resolve };
}

/** A schema the converter cannot turn into values (a cycle, a remote ref, `false`). */
function unsupportedSchema(message: string): ContractTestsError {
  return new ContractTestsError(
    'unsupported_schema',
    `The explorer cannot generate values for this schema: ${message}.`,
  );
}
