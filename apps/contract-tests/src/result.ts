// The one shape of an error returned as a value in this app: `{ ok: true, value }` on success,
// `{ ok: false, error }` (an error with a `kind` and a message that says what to do) otherwise.
export type Result<T, E> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

export const success = <T>(value: T): { readonly ok: true; readonly value: T } => ({ ok: true, value });
export const failure = <E>(error: E): { readonly ok: false; readonly error: E } => ({ ok: false, error });
