// The docs build's one error (CONTRIBUTING.md, "Errors and results"): every step returns a
// DocsResult instead of throwing, so the CLI prints one helpful message per failure and exits 1.
import { BrandedError, guardFor, type ErrorInit } from '@forms-api/internal';
import type { Result } from '@forms-api/types';

export type DocsErrorKind =
  /** The bundled spec or the drift ledger cannot be read, or holds nothing to show (`pnpm bundle`). */
  | 'spec_missing'
  /** A guide file is misnamed, has no title or text, or is named like an API tag. */
  | 'guide_invalid'
  /** `redocly build-docs` exited with an error; the message holds its output. */
  | 'redocly_failed'
  /** The built page would load something from another host, so it would not work offline. */
  | 'external_resource'
  /** The built page would send Redoc telemetry. */
  | 'telemetry_enabled'
  /** A command-line argument of `docs:serve` is malformed. */
  | 'usage'
  /** An operation has no code sample, or a sample names no operation of the spec. */
  | 'sample_missing'
  /** The contract suite's report is not JSON or not a report. */
  | 'report_invalid';

/** What was judged: a file, an operation, an argument, an exit status. Never a token. */
export type DocsErrorContext = Readonly<Record<string, unknown>>;

export class DocsError extends BrandedError<DocsErrorKind, DocsErrorContext> {
  static override readonly brand = Symbol.for('@forms-api/docs/error');
  override readonly name = 'DocsError';
}

/** Whether `value` is a DocsError, from this copy of the module or any other (not `instanceof`). */
export const isDocsError = guardFor(DocsError);

/** The toolkit's one result shape, with the docs build's error. */
export type DocsResult<T> = Result<T, DocsError>;

/** A failed step: its DocsError as a result value. */
export const fail = (
  kind: DocsErrorKind,
  message: string,
  init: ErrorInit<DocsErrorContext> = {},
): DocsResult<never> => ({ ok: false, error: new DocsError(kind, message, init) });
