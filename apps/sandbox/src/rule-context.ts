// What the service's rules (src/rules.ts) may read of a running sandbox: its address, clock, spec
// validator, file signers and the counts records show. A leaf module: the rules take this, never
// the whole SandboxContext (which holds the rules), so no module the rules import leads back to them.
import type { SpecValidator, ValidationResult } from '@forms-api/spec/validator';
import type { FileSigner } from './files.js';
import type { Workspace } from './model.js';
import type { Storage } from './storage.js';

export type SchemaError = ValidationResult['errors'][number];

export interface RuleContext {
  /** Where clients reach the sandbox; every URL the sandbox writes starts with it (never with a request's Host). */
  readonly baseUrl: string;
  now: () => number;
  validator: Pick<SpecValidator, 'validateRequestBody'>;
  files: Pick<FileSigner, 'url'>;
  storage: Pick<Storage, 'presign'>;
  store: {
    completedCount(formId: number): number;
    holdsFile(formId: number, name: string): boolean;
    readonly workspaces: ReadonlyMap<number, Workspace>;
  };
}
