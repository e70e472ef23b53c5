// A copy of the bundled spec with operations added the way a contributor adds one: for the tests
// that show what an operation gets from the spec alone, and what it still needs by hand.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSpecValidator } from '@forms-api/spec/validator';
import { loadSpec, type SpecArtifacts } from '../src/spec.js';

/** The usual refusals of a secured operation, as the spec's own operations write them. */
const REFUSALS = {
  '401': { $ref: '#/components/responses/Unauthenticated' },
  '403': { $ref: '#/components/responses/Forbidden' },
  '404': { $ref: '#/components/responses/NotFound' },
  '429': { $ref: '#/components/responses/RateLimited' },
  '500': { $ref: '#/components/responses/ServerError' },
};

/** GET /open/forms/{form}/widgets: read-only, forms-read, the form by FormRef. */
export const WIDGETS = 'listFormWidgets';
/** GET /open/forms/{form}/widgets/{widget}: a widget is nothing the target has an id setting for. */
export const WIDGET = 'getFormWidget';
/** POST /open/forms/{form}/gadgets: a write with no body example and no links. */
export const GADGETS = 'createFormGadget';

export function withSyntheticOperations(bundle: Record<string, any>): Record<string, any> {
  const copy = structuredClone(bundle);
  const widget = { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } };
  copy.paths['/open/forms/{form}/widgets'] = {
    parameters: [{ $ref: '#/components/parameters/FormRef' }],
    get: {
      operationId: WIDGETS,
      summary: 'List the widgets of a form',
      security: [{ personalAccessToken: ['forms-read'] }],
      responses: {
        '200': {
          description: 'The widgets.',
          content: { 'application/json': { schema: { type: 'array', items: widget }, example: [{ id: 1 }] } },
        },
        ...REFUSALS,
      },
    },
  };
  copy.paths['/open/forms/{form}/widgets/{widget}'] = {
    parameters: [
      { $ref: '#/components/parameters/FormRef' },
      { name: 'widget', in: 'path', required: true, schema: { type: 'integer' }, 'x-identifies': 'widget' },
    ],
    get: {
      operationId: WIDGET,
      summary: 'Get a widget of a form',
      security: [{ personalAccessToken: ['forms-read'] }],
      responses: {
        '200': { description: 'The widget.', content: { 'application/json': { schema: widget, example: { id: 1 } } } },
        ...REFUSALS,
      },
    },
  };
  copy.paths['/open/forms/{form}/gadgets'] = {
    parameters: [{ $ref: '#/components/parameters/FormRef' }],
    post: {
      operationId: GADGETS,
      summary: 'Add a gadget to a form',
      security: [{ personalAccessToken: ['forms-write'] }],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string' } } } } },
      },
      responses: {
        '200': { description: 'The gadget.', content: { 'application/json': { schema: widget } } },
        '422': { $ref: '#/components/responses/ValidationFailed' },
        ...REFUSALS,
      },
    },
  };
  return copy;
}

/** The suite's spec artifacts for the copy (written to a temporary file for Prism); `remove` deletes the file. */
export function syntheticSpec(): { spec: SpecArtifacts; remove: () => void } {
  const base = loadSpec();
  const bundle = withSyntheticOperations(base.bundle);
  const dir = mkdtempSync(join(tmpdir(), 'contract-synthetic-'));
  const yamlPath = join(dir, 'openapi.json');
  // JSON is YAML: Prism reads it as it reads the bundle.
  writeFileSync(yamlPath, JSON.stringify(bundle));
  return {
    spec: {
      ...base,
      yamlPath,
      bundle,
      validator: createSpecValidator(bundle),
      closedValidator: createSpecValidator(bundle, { closed: true }),
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
