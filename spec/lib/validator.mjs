// JSON Schema 2020-12 validation of values against the bundled spec (Ajv 2020 in strict mode):
// response bodies by operation and status, request bodies, components and the webhook payload.
// Shared by the spec's own tests, the sandbox and the contract suite so they judge alike.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { PATH_ITEM_METHODS } from './path-item-methods.mjs';

const SPEC_ID = 'https://forms-api-kit.dev/openapi.json';
// OpenAPI keywords and this spec's extensions that may sit beside JSON Schema keywords.
const ANNOTATION_KEYWORDS = [
  'components',
  'example',
  'discriminator',
  'xml',
  'externalDocs',
  'x-observed',
  'x-drift',
  'x-blocked-header-names',
  'x-internal',
  'x-server-error-when',
  'x-identifies',
  'x-server-maintained',
  'x-read-back-as',
  'x-order',
];

/**
 * @param {object} bundle the bundled OpenAPI document (spec/dist/openapi.json)
 * @param {{ closed?: boolean }} [options] closed: also reject properties the schemas do not name
 *   (used to surface additive drift)
 */
export function createSpecValidator(bundle, options = {}) {
  const ajv = new Ajv2020({
    strict: true,
    strictRequired: false,
    allErrors: true,
    allowUnionTypes: true,
    validateFormats: true,
  });
  addFormats(ajv);
  for (const keyword of ANNOTATION_KEYWORDS)
    ajv.addKeyword({ keyword, schemaType: ['boolean', 'string', 'object', 'array', 'number'] });
  const components = options.closed ? closeObjects(structuredClone(bundle.components)) : bundle.components;
  ajv.addSchema({ $id: SPEC_ID, components }, undefined, undefined, false);

  const cache = new Map();
  const compile = (pointer) => {
    if (!cache.has(pointer)) {
      const validate = ajv.compile({ $ref: `${SPEC_ID}#${pointer.replace(/^#\/components/, '/components')}` });
      cache.set(pointer, validate);
    }
    return cache.get(pointer);
  };
  const escape = (segment) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

  const operations = new Map();
  for (const [path, item] of Object.entries(bundle.paths ?? {})) {
    for (const method of PATH_ITEM_METHODS) {
      if (item[method]?.operationId)
        operations.set(item[method].operationId, { path, method, operation: item[method] });
    }
  }

  /** Validate inline schema objects found at a location of the bundle by inlining them under a ref. */
  const inlineSchemas = new Map();
  const compileInline = (key, schema) => {
    if (!inlineSchemas.has(key)) inlineSchemas.set(key, ajv.compile(rebase(schema)));
    return inlineSchemas.get(key);
  };

  const resolve = (node) => {
    let current = node;
    while (current && typeof current.$ref === 'string' && current.$ref.startsWith('#/')) {
      current = current.$ref
        .slice(2)
        .split('/')
        .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
        .reduce((acc, seg) => acc?.[seg], bundle);
    }
    return current;
  };

  const result = (validate, value) => {
    const valid = validate(value);
    return { valid: Boolean(valid), errors: valid ? [] : [...(validate.errors ?? [])] };
  };

  return {
    operations,
    /** Validate a value against a named component schema (`FormSummary`, `SubmissionCreatedPayload`, …). */
    validateComponent(name, value) {
      if (!bundle.components?.schemas?.[name]) throw new Error(`spec validator: no component schema named ${name}`);
      return result(compile(`#/components/schemas/${escape(name)}`), value);
    },
    /** The statuses an operation documents, as strings ('200', '404', …). */
    documentedStatuses(operationId) {
      const entry = operations.get(operationId);
      if (!entry) throw new Error(`spec validator: unknown operationId ${operationId}`);
      return Object.keys(entry.operation.responses ?? {});
    },
    /** The response definition (resolved) of an operation for a status, or undefined when undocumented. */
    responseFor(operationId, status) {
      const entry = operations.get(operationId);
      if (!entry) throw new Error(`spec validator: unknown operationId ${operationId}`);
      const responses = entry.operation.responses ?? {};
      return resolve(responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default);
    },
    /** Validate a response body of an operation for a status and media type. */
    validateResponse(operationId, status, body, mediaType = 'application/json') {
      const response = this.responseFor(operationId, status);
      if (!response)
        return {
          valid: false,
          errors: [
            {
              keyword: 'status',
              instancePath: '',
              message: `status ${status} is not documented for ${operationId}`,
              params: {},
            },
          ],
        };
      const schema = response.content?.[mediaType]?.schema;
      if (!schema)
        return {
          valid: false,
          errors: [
            {
              keyword: 'contentType',
              instancePath: '',
              message: `no ${mediaType} body is documented for ${operationId} ${status}`,
              params: {},
            },
          ],
        };
      return result(compileInline(`${operationId} ${status} ${mediaType}`, schema), body);
    },
    /** Validate a request body of an operation. */
    validateRequestBody(operationId, body, mediaType = 'application/json') {
      const entry = operations.get(operationId);
      const schema = resolve(entry?.operation.requestBody)?.content?.[mediaType]?.schema;
      if (!schema) throw new Error(`spec validator: ${operationId} documents no ${mediaType} request body`);
      return result(compileInline(`${operationId} request ${mediaType}`, schema), body);
    },
    /** Validate the payload of a webhook (by default `submission.created`). */
    validateWebhookPayload(body, webhook = 'submission.created') {
      const schema = resolve(bundle.webhooks?.[webhook])?.post?.requestBody?.content?.['application/json']?.schema;
      if (!schema) throw new Error(`spec validator: no webhook named ${webhook}`);
      return result(compileInline(`webhook ${webhook}`, schema), body);
    },
    /**
     * Whether the service fails with 500 on this request body of the operation, as the spec says:
     * its request schema names, in `x-server-error-when`, the schema of the bodies it cannot handle.
     */
    failsTheService(operationId, body, mediaType = 'application/json') {
      const entry = operations.get(operationId);
      const schema = resolve(resolve(entry?.operation.requestBody)?.content?.[mediaType]?.schema);
      const failing = schema?.['x-server-error-when'];
      return typeof failing === 'string' && result(compile(failing), body).valid;
    },
    /** Validate any schema object taken from the bundle (for example a parameter's schema). */
    validateSchema(key, schema, value) {
      return result(compileInline(key, schema), value);
    },
  };

  // Inline schemas carry `#/components/...` refs relative to the whole document; point them at it.
  function rebase(schema) {
    if (Array.isArray(schema)) return schema.map(rebase);
    if (!schema || typeof schema !== 'object') return schema;
    return Object.fromEntries(
      Object.entries(schema).map(([k, v]) => [
        k,
        k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${SPEC_ID}${v}` : rebase(v),
      ]),
    );
  }
}

/** Formats Ajv errors as short lines: `/data/0 must have required property 'is_pro'`. */
export function formatErrors(errors) {
  return errors.map(
    (e) =>
      `${e.instancePath || '/'} ${e.message ?? e.keyword}${e.params?.additionalProperty ? ` (${e.params.additionalProperty})` : ''}${e.params?.unevaluatedProperty ? ` (${e.params.unevaluatedProperty})` : ''}`,
  );
}

function closeObjects(node) {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (!node || typeof node !== 'object') return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, closeObjects(v)]));
  const isObjectSchema = out.type === 'object' || (Array.isArray(out.type) && out.type.includes('object'));
  if (
    isObjectSchema &&
    out.properties &&
    out.additionalProperties === undefined &&
    out.unevaluatedProperties === undefined
  ) {
    out.unevaluatedProperties = false;
  }
  return out;
}
