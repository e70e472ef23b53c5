// Loads the contract artifacts from @forms-api/spec: the bundle, its YAML path (for Prism), the
// drift ledger and two Ajv validators (the contract as written, and a closed one for additive drift).
// Facts about operations (paths, statuses, abilities) are read from the bundle (see operations.ts).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createSpecValidator, type SpecValidator } from '@forms-api/spec/validator';
import { readDriftLedger, type DriftLedger } from '@forms-api/spec/drift';

export interface SpecArtifacts {
  /** Absolute path of the bundled spec as YAML, handed to `prism mock` / `prism proxy`. */
  readonly yamlPath: string;
  readonly bundle: Record<string, any>;
  readonly ledger: DriftLedger;
  /** Validates against the contract as written. */
  readonly validator: SpecValidator;
  /** Also rejects properties the schemas do not name: surfaces additive drift (informational). */
  readonly closedValidator: SpecValidator;
}

function resolveSpecFile(subpath: string): string {
  // Resolve through the package's exports so a published @forms-api/spec works the same as the workspace one.
  return fileURLToPath(import.meta.resolve(`@forms-api/spec/${subpath}`));
}

/** The bundled spec, parsed. */
export function loadBundle(): Record<string, any> {
  return JSON.parse(readFileSync(resolveSpecFile('openapi.json'), 'utf8')) as Record<string, any>;
}

export function loadSpec(): SpecArtifacts {
  const bundle = loadBundle();
  return {
    yamlPath: resolveSpecFile('openapi.yaml'),
    bundle,
    ledger: readDriftLedger(),
    validator: createSpecValidator(bundle),
    closedValidator: createSpecValidator(bundle, { closed: true }),
  };
}
