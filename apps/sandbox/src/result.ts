// The one shape in which the sandbox returns an outcome that may be an error: a value or an error,
// told apart by `ok`, so callers handle both without exceptions.
export type Result<T, E> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const err = <E>(error: E): Result<never, E> => ({ ok: false, error });
