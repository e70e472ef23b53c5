// Run-time validation of submission.created payloads against the spec's standalone JSON Schema
// (Ajv 2020). A separate entry point, so receivers that do not validate never load Ajv.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import schema from '@forms-api/spec/submission-created.schema.json' with { type: 'json' };
import type { PayloadValidator } from './core/api.js';

/** Compiles the schema once; the returned function lists the problems of a payload. */
export function createPayloadValidator(): PayloadValidator {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(schema as object);
  return (payload) =>
    validate(payload) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
}
