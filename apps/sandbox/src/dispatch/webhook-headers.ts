// The custom headers of a webhook integration, judged when it is saved: the service's checks in
// its order and words (WebhookIntegration.php:43-78 at aee613da: the first problem only), plus
// what no HTTP request can carry, which the service saves and then fails on at every delivery.

/** RFC 9110 token characters: what a header name may hold (Guzzle and Node check the same set). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A line break, NUL or other control character (a horizontal tab is allowed in a value). */
const UNSENDABLE_VALUE = /[\x00-\x08\x0a-\x1f\x7f]/;
/** A decimal integer with no leading zero or plus sign (`-0` excluded), the form PHP reads as a number. */
const DECIMAL_KEY = /^(0|-?[1-9]\d{0,18})$/;
/**
 * A JSON key PHP turns into an integer array key, which the service's `is_string` check refuses:
 * a decimal integer key within 64 bits (a longer one stays a string).
 */
const isPhpIntegerKey = (name: string) =>
  DECIMAL_KEY.test(name) && BigInt(name) >= -(2n ** 63n) && BigInt(name) < 2n ** 63n;

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
/** A name as a message may quote it: control characters shown as \xHH. */
const quoted = (name: string) =>
  name.replace(/[\x00-\x1f\x7f]/g, (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`);

/**
 * The first problem of `headers` (an object of name → value) in the service's words, or undefined.
 * `blocked`: lower-cased names that cannot be customised.
 */
export function webhookHeadersProblem(
  headers: Record<string, unknown>,
  blocked: ReadonlySet<string>,
): string | undefined {
  const entries = Object.entries(headers);
  if (entries.length > 10) return 'Maximum 10 custom headers allowed.';
  for (const [name, value] of entries) {
    if (name === '' || isPhpIntegerKey(name)) return 'Header names must be non-empty strings.';
    if (bytes(name) > 255) return `Header name '${quoted(name)}' exceeds 255 characters.`;
    if (blocked.has(name.toLowerCase()))
      return `The '${quoted(name)}' header cannot be customized for security reasons.`;
    // The sandbox's own check: the service would save it and record an error at every delivery.
    if (!HEADER_NAME.test(name))
      return `Header name '${quoted(name)}' is not a valid HTTP header name: use letters, digits and !#$%&'*+.^_\`|~- only, without spaces or non-ASCII characters.`;
    if (typeof value !== 'string') return `Header values must be strings. '${name}' has invalid value type.`;
    if (bytes(value) > 255) return `Header value for '${name}' exceeds 255 characters.`;
    if (UNSENDABLE_VALUE.test(value))
      return `Header value for '${name}' holds a line break, NUL or other control character, which no HTTP request can carry: remove it.`;
  }
  return undefined;
}
