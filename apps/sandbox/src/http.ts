// Response helpers: JSON bodies (compact, like the service), the shared error bodies, and the
// exception that routes throw to answer with one of them.
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.message === 'string' ? body.message : `HTTP ${status}`);
  }
}

export const unauthenticated = () => new HttpError(401, { message: 'Unauthenticated.' });
export const forbidden = () => new HttpError(403, { message: 'This action is unauthorized.' });
export const notFound = (model: string, id?: string | number) =>
  new HttpError(404, {
    message:
      id === undefined
        ? `No query results for model [App\\Models\\${model}].`
        : `No query results for model [App\\Models\\${model}] ${id}`,
  });

/**
 * Validation messages by input key. A Map, not an object: keys come from the request, and a key
 * such as `__proto__` must be an entry like any other, not a prototype change.
 */
export class FieldErrors {
  readonly #byKey = new Map<string, string[]>();

  add(key: string, message: string): void {
    const messages = this.#byKey.get(key);
    if (messages) messages.push(message);
    else this.#byKey.set(key, [message]);
  }

  has(key: string): boolean {
    return this.#byKey.has(key);
  }

  get size(): number {
    return this.#byKey.size;
  }

  /** The 422 in the service's shape: the first message (+ "(and N more errors)") and every message by key. */
  toHttpError(): HttpError {
    const messages = [...this.#byKey.values()].flat();
    const more = messages.length - 1;
    const message =
      more > 0
        ? `${messages[0]} (and ${more} more error${more === 1 ? '' : 's'})`
        : (messages[0] ?? 'The given data was invalid.');
    // Object.fromEntries defines own properties, so `__proto__` stays a key of the body.
    return new HttpError(422, { message, errors: Object.fromEntries(this.#byKey) });
  }
}

export function validationFailed(key: string, message: string): HttpError {
  const errors = new FieldErrors();
  errors.add(key, message);
  return errors.toHttpError();
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...headers, 'content-type': 'application/json' } });
}
