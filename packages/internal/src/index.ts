// Everything the published packages share at run time; each package's build inlines what it uses.
// One error mechanism for every package (CONTRIBUTING.md, "Errors and results"): a class with a
// snake_case `kind`, a frozen `context`, and a brand that a guard recognises across module copies.
// Declarations that a package's public types extend live in this file itself: the declaration
// bundler inlines this entry but not files it imports.

/** What every package's error constructor takes besides its kind and message. */
export interface ErrorInit<C> {
  /** What was judged (a limit, a status, an id); never a secret. Frozen on the error. */
  context?: C;
  cause?: unknown;
}

/**
 * The base of each package's one error class. A subclass sets `name` to its own class name and
 * passes its brand (`Symbol.for('@forms-api/<package>/error')`): the symbol registry is shared by
 * every copy of a package (ESM and CommonJS builds, two installed versions), so `hasBrand` holds
 * where `instanceof` does not.
 */
export abstract class BrandedError<K extends string, C extends object> extends Error {
  readonly kind: K;
  readonly context: Readonly<C>;

  protected constructor(brand: symbol, kind: K, message: string, init: ErrorInit<C> = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = kind;
    this.context = Object.freeze({ ...init.context } as C);
    Object.defineProperty(this, brand, { value: true });
  }
}

/** Whether `value` carries `brand`: the body of every `isXxxError` guard. */
export function hasBrand(value: unknown, brand: symbol): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}
