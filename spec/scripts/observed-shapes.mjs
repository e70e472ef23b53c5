// Widens the bundled contract by the drift ledger's `shape` changes, giving the observed bundle
// (dist/openapi.observed.*): the same API, typed by what the service really sends.
// One place applies the shapes, so the bundle step, the lint and the tests agree on the result.
import { createSpecValidator } from '../lib/validator.mjs';

/** Splits a URI-fragment JSON pointer (`#/components/schemas/X/properties/y`) into its keys. */
export function pointerKeys(at) {
  if (typeof at !== 'string' || !at.startsWith('#/'))
    throw new Error(`drift shape: "${at}" is not a JSON pointer of the bundle (it must start with #/)`);
  return at
    .slice(2)
    .split('/')
    .map((key) => decodeURIComponent(key).replaceAll('~1', '/').replaceAll('~0', '~'));
}

function lookUp(root, keys) {
  let node = root;
  for (const key of keys) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = node[key];
  }
  return node;
}

/**
 * Where one change lands: the node at `at` (undefined when `at` names a key the contract does not
 * have), its parent, and, for `.../properties/<key>`, the object schema that owns the key.
 */
function place(bundle, change, entryId) {
  const keys = pointerKeys(change.at);
  const parent = lookUp(bundle, keys.slice(0, -1));
  const key = keys.at(-1);
  const where = `${entryId}: shape at ${change.at}`;
  if (!parent || typeof parent !== 'object')
    throw new Error(`${where}: its parent does not exist in the bundled contract`);
  const isProperty = keys.at(-2) === 'properties';
  const owner = isProperty ? lookUp(bundle, keys.slice(0, -2)) : undefined;
  return { where, parent, key, node: Object.hasOwn(parent, key) ? parent[key] : undefined, isProperty, owner };
}

/** The observed schema at a place, marked with the ledger entries that shaped it. */
function marked(schema, entryId, previous) {
  const ids = [...(previous?.['x-drift'] ?? []), entryId];
  return { ...schema, 'x-drift': [...new Set(ids)] };
}

/**
 * The contract's schema widened by `also`, kept as close to the contract's as possible so the
 * places inside it (and the lint overrides that name them) do not move: another type joins the
 * `type` list, another alternative joins an existing `anyOf`; anything else becomes an `anyOf`.
 */
function widened(node, also) {
  const { description, ...alsoShape } = also;
  const note = (schema) =>
    description
      ? { ...schema, description: [schema.description, `Also observed: ${description}`].filter(Boolean).join(' ') }
      : schema;
  const onlyType = Object.keys(alsoShape).length === 1 && alsoShape.type !== undefined;
  if (onlyType && node.type !== undefined && node.$ref === undefined) {
    return note({ ...node, type: [...new Set([node.type, alsoShape.type].flat())] });
  }
  if (Array.isArray(node.anyOf) && !node.oneOf && !node.allOf && !node.$ref)
    return { ...node, anyOf: [...node.anyOf, also] };
  return { anyOf: [node, also] };
}

/**
 * Returns a copy of `bundle` with every `shape` change of the ledger's entries applied, in ledger
 * order. A change names a place (`at`) and one of:
 * - `also`: a schema the service sends besides the contract's; the place becomes `anyOf` of both
 *   (for a key the contract does not have, `at` is `.../properties/<key>` and the key is added,
 *   not required);
 * - `instead`: the schema the service sends in place of the contract's;
 * - `optional: true`: `at` is `.../properties/<key>` and the service may leave the key out.
 * Anything that does not land where it says throws, naming the entry.
 */
export function applyDriftShapes(bundle, ledger) {
  const observed = structuredClone(bundle);
  delete observed['x-generated'];
  const applied = [];
  for (const entry of ledger.entries) {
    for (const change of entry.shape ?? []) {
      const { where, parent, key, node, isProperty, owner } = place(observed, change, entry.id);
      const modes = ['also', 'instead', 'optional'].filter((mode) => change[mode] !== undefined);
      if (modes.length !== 1)
        throw new Error(`${where}: give exactly one of also, instead or optional (got ${modes.join(', ') || 'none'})`);
      if (change.also !== undefined) {
        if (node === undefined) {
          if (!isProperty || !owner)
            throw new Error(`${where}: the contract has nothing there, and it is not a key of an object schema`);
          parent[key] = marked(change.also, entry.id);
        } else {
          parent[key] = marked(widened(node, change.also), entry.id, node);
        }
      } else if (change.instead !== undefined) {
        if (node === undefined)
          throw new Error(`${where}: the contract has nothing there to replace; use also to add a key`);
        parent[key] = marked(change.instead, entry.id, node);
      } else {
        if (!isProperty || !owner || node === undefined)
          throw new Error(`${where}: optional names a key the contract's object schema has (…/properties/<key>)`);
        if (!owner.required?.includes(key))
          throw new Error(`${where}: the contract does not require ${key}, so it cannot become optional`);
        owner.required = owner.required.filter((name) => name !== key);
        parent[key] = marked(node, entry.id, node);
      }
      applied.push({ entry: entry.id, at: change.at });
    }
  }
  const droppedExamples = dropContradictedExamples(observed);
  observed.info = {
    ...observed.info,
    title: `${observed.info.title} (observed)`,
    description:
      `${observed.info.description ?? ''}\n\nThis is the observed bundle: the published contract widened by every shape ` +
      'change of the drift ledger (drift.json, `shape`), so it describes what the service sends. Each changed schema names ' +
      'its ledger entries in `x-drift`. Response examples of the contract that the service would not send are left out' +
      (droppedExamples.length > 0 ? ` (${droppedExamples.join(', ')}).` : '.'),
  };
  return { observed, applied, droppedExamples };
}

/**
 * Removes the response examples that no longer validate (they show the contract's shape, which
 * the service does not send) and the example components nothing refers to any more. Returns the
 * names of the examples removed.
 */
function dropContradictedExamples(observed) {
  const validator = createSpecValidator(observed);
  const dropped = [];
  for (const [operationId, { operation }] of validator.operations) {
    for (const status of Object.keys(operation.responses ?? {})) {
      const response = validator.responseFor(operationId, status);
      for (const [mediaType, media] of Object.entries(response?.content ?? {})) {
        for (const [name, example] of Object.entries(media.examples ?? {})) {
          const value = example.$ref ? lookUp(observed, pointerKeys(example.$ref))?.value : example.value;
          if (value === undefined || validator.validateResponse(operationId, status, value, mediaType).valid) continue;
          delete media.examples[name];
          dropped.push(example.$ref ? example.$ref.split('/').at(-1) : `${operationId} ${status} ${name}`);
        }
        if (media.examples && Object.keys(media.examples).length === 0) delete media.examples;
      }
    }
  }
  const referenced = JSON.stringify(observed);
  for (const name of Object.keys(observed.components?.examples ?? {})) {
    if (!referenced.includes(`"#/components/examples/${name}"`)) delete observed.components.examples[name];
  }
  return [...new Set(dropped)].sort();
}
