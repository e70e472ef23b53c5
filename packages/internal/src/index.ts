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
 * The base of each package's one error class. A subclass declares its `name` (its own class name)
 * and a static `brand`, `Symbol.for('@forms-api/<package>/error')`: the symbol registry is shared
 * by every copy of a package (ESM and CommonJS builds, two installed versions), so the guard from
 * `guardFor` holds where `instanceof` does not.
 *
 *     export class InboxError extends BrandedError<InboxErrorKind, InboxErrorContext> {
 *       static override readonly brand = Symbol.for('@forms-api/webhook-inbox/error');
 *       override readonly name = 'InboxError';
 *     }
 *     export const isInboxError = guardFor(InboxError);
 */
export abstract class BrandedError<K extends string, C extends object> extends Error {
  /** The subclass's brand; a class that does not declare one cannot be constructed. */
  static readonly brand: symbol | undefined = undefined;
  readonly kind: K;
  readonly context: Readonly<C>;

  constructor(kind: K, message: string, init: ErrorInit<C> = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    const { brand } = new.target as unknown as typeof BrandedError;
    if (brand === undefined) throw new TypeError(`${new.target.name} declares no static brand.`);
    this.kind = kind;
    this.context = Object.freeze({ ...init.context } as C);
    Object.defineProperty(this, brand, { value: true });
  }
}

/** The `isXxxError` guard of an error class: true for an error of it from any copy of the module. */
export function guardFor<E extends BrandedError<string, object>>(errorClass: {
  readonly brand: symbol | undefined;
  readonly prototype: E;
}): (value: unknown) => value is E {
  const { brand } = errorClass;
  if (brand === undefined) throw new TypeError('guardFor needs a class that declares a static brand.');
  return (value): value is E => hasBrand(value, brand);
}

/** Whether `value` carries `brand` (an own property that `{ ...error }` and JSON do not copy). */
export function hasBrand(value: unknown, brand: symbol): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}
