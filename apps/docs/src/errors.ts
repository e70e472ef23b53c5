// Errors as values: every step of the docs build returns a DocsResult instead of throwing, so the
// CLI can print one helpful message per failure and exit non-zero.
import type { Result } from '@forms-api/types';

export type DocsErrorKind =
  | 'spec_missing'
  | 'guide_invalid'
  | 'redocly_failed'
  | 'external_resource'
  | 'telemetry_enabled'
  | 'bad_argument'
  | 'sample_missing'
  | 'report_invalid';

export interface DocsError {
  kind: DocsErrorKind;
  message: string;
}

/** The toolkit's one result shape, with the docs build's error. */
export type DocsResult<T> = Result<T, DocsError>;

export const fail = (kind: DocsErrorKind, message: string): DocsResult<never> => ({
  ok: false,
  error: { kind, message },
});
