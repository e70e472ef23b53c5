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
  new HttpError(404, { message: id === undefined ? `No query results for model [App\\Models\\${model}].` : `No query results for model [App\\Models\\${model}] ${id}` });

/** A 422 in the service's shape: the first message (+ "(and N more errors)") and every message by key. */
export function validationFailed(errors: Record<string, string[]>): HttpError {
  const messages = Object.values(errors).flat();
  const more = messages.length - 1;
  const message = more > 0 ? `${messages[0]} (and ${more} more error${more === 1 ? '' : 's'})` : messages[0] ?? 'The given data was invalid.';
  return new HttpError(422, { message, errors });
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...headers, 'content-type': 'application/json' } });
}
