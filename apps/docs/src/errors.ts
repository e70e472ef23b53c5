// Errors as values: every step of the docs build returns a Result instead of throwing, so the
// CLI can print one helpful message per failure and exit non-zero.
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

export type Result<T> = { ok: true; value: T } | { ok: false; error: DocsError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (kind: DocsErrorKind, message: string): Result<never> => ({
  ok: false,
  error: { kind, message },
});
