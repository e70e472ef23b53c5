// Types of drift.mjs. The ledger's types are generated from drift.schema.json into
// dist/drift-ledger.d.ts by `pnpm bundle` (scripts/drift-types.mjs).
import type { DriftLedger } from '../dist/drift-ledger.js';

export type * from '../dist/drift-ledger.js';

/** The ledger as shipped (dist/drift.json). Throws the file system's or JSON's error when dist/ was not bundled. */
export function readDriftLedger(): DriftLedger;
