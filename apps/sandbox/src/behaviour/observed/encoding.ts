// JSON bodies byte for byte as the service's framework writes them. Responses and resources use
// json_encode's default flags: `/` escaped as `\/`, every non-ASCII character as `\uXXXX`
// (laravel: Http/JsonResponse.php). Exceptions the framework's handler renders (403, 404, 429,
// 500, …) are pretty-printed with 4 spaces and unescaped slashes (laravel:
// Foundation/Exceptions/Handler.php, prepareJsonResponse); 401, 422 and controller errors
// (`{"type": "error", …}`) are answered compactly like any response.
import type { ExchangeRequest, ExchangeResponse } from '../behaviour.js';

const escapeNonAscii = (json: string) =>
  json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** json_encode($value): compact, `\/`, `\uXXXX`. */
export const jsonEncode = (value: unknown) => escapeNonAscii(JSON.stringify(value).replaceAll('/', '\\/'));

/** json_encode($value, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES). */
export const jsonEncodePretty = (value: unknown) => escapeNonAscii(JSON.stringify(value, null, 4));

/** Whether the framework's exception handler wrote this error body (not a controller, validation or 401). */
const renderedByExceptionHandler = (status: number, body: unknown) =>
  status >= 400 && status !== 401 && status !== 422 && !(body !== null && typeof body === 'object' && 'type' in body);

/** The response rewrite: every JSON body of the service's API re-encoded as the framework would. */
export function encodeLikeTheFramework(req: ExchangeRequest, res: ExchangeResponse): void {
  if (
    req.path.startsWith('/__sandbox/') ||
    !(res.headers['content-type'] ?? '').startsWith('application/json') ||
    res.body === ''
  )
    return;
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return; // not JSON after all (another behaviour rewrote it): left as it is
  }
  res.body = renderedByExceptionHandler(res.status, body) ? jsonEncodePretty(body) : jsonEncode(body);
}
