// Reads the drift ledger this package ships (dist/drift.json, bundled from drift.yaml): the one
// loader the contract suite and the docs share; its types are generated from drift.schema.json.
import { readFileSync } from 'node:fs';

/** The ledger as shipped. Throws the file system's or JSON's error when dist/ was not bundled. */
export function readDriftLedger() {
  return JSON.parse(readFileSync(new URL('../dist/drift.json', import.meta.url), 'utf8'));
}
