// Every example in the bundle (responses, request bodies, parameters, the webhook payload)
// validates against its schema with a JSON Schema 2020-12 validator.
import { describe, expect, it } from 'vitest';
import { createSpecValidator, formatErrors } from '../lib/validator.mjs';
import { bundle, operations, resolve } from './load-bundle.js';

const validator = createSpecValidator(bundle);

type Case = { name: string; schema: unknown; value: unknown };
const cases: Case[] = [];

function collectMedia(where: string, content: Record<string, any> | undefined) {
  for (const [mediaType, media] of Object.entries(content ?? {})) {
    if (!media.schema || mediaType !== 'application/json') continue;
    if (media.example !== undefined)
      cases.push({ name: `${where} ${mediaType} example`, schema: media.schema, value: media.example });
    for (const [exampleName, example] of Object.entries<any>(media.examples ?? {})) {
      cases.push({
        name: `${where} ${mediaType} examples.${exampleName}`,
        schema: media.schema,
        value: resolve(example).value,
      });
    }
  }
}

for (const { path, method, operation } of operations()) {
  const where = `${method.toUpperCase()} ${path}`;
  collectMedia(`${where} request`, resolve(operation.requestBody)?.content);
  for (const [status, response] of Object.entries<any>(operation.responses))
    collectMedia(`${where} ${status}`, resolve(response).content);
  for (const parameter of [...(bundle.paths[path].parameters ?? []), ...(operation.parameters ?? [])].map(resolve)) {
    if (parameter.example !== undefined)
      cases.push({ name: `${where} parameter ${parameter.name}`, schema: parameter.schema, value: parameter.example });
  }
}
for (const [name, webhook] of Object.entries<any>(bundle.webhooks)) {
  collectMedia(`webhook ${name}`, resolve(webhook).post.requestBody.content);
}

describe('examples in the bundled spec', () => {
  it('covers every operation with at least one success example', () => {
    for (const { path, method, operation } of operations()) {
      const success = Object.entries<any>(operation.responses).find(([status]) => status.startsWith('2'));
      const media = resolve(success?.[1])?.content ?? {};
      const hasExample = Object.values<any>(media).some(
        (m) => m.example !== undefined || Object.keys(m.examples ?? {}).length > 0,
      );
      expect(hasExample, `${method.toUpperCase()} ${path} has no success example`).toBe(true);
    }
    expect(cases.length).toBeGreaterThan(30);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s is valid', (name, { schema, value }) => {
    const { valid, errors } = validator.validateSchema(name, schema, value);
    expect(formatErrors(errors), name).toEqual([]);
    expect(valid).toBe(true);
  });

  it('rejects an example that breaks its schema (the check can fail)', () => {
    const page = resolve(bundle.components.examples.FormSummaryPage).value;
    const broken = structuredClone(page);
    delete broken.data[0].is_pro;
    broken.data[1].visibility = 'secret';
    const { valid, errors } = validator.validateComponent('FormSummaryPage', broken);
    expect(valid).toBe(false);
    expect(formatErrors(errors).join('\n')).toMatch(/is_pro/);
    expect(formatErrors(errors).join('\n')).toMatch(/\/data\/1\/visibility/);
  });
});
