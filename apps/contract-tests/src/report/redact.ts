// Replaces every secret of a run (the targets' tokens, webhook secrets) with its placeholder in text
// that leaves the process, in each form a tenant could echo it back: raw, percent-encoded (either
// case), JSON-escaped, as an XML/HTML entity, and the secret half of a Sanctum `id|secret` token.

/** A function that redacts text; built once per set of secrets, since building the patterns costs. */
export type Redact = (text: string) => string;

/** Shortest secret worth replacing: shorter strings would blank out ordinary words and numbers. */
const MIN_SECRET_LENGTH = 4;
/** Shortest secret half (after `|`) replaced on its own; Sanctum's are 40 characters. */
const MIN_HALF_LENGTH = 8;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** A hex number in any letter case, zero-padded to `width`: 0x7c -> `7[cC]`. */
function hexPattern(value: number, width: number): string {
  return [...value.toString(16).padStart(width, '0')].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join('');
}

const utf8 = new TextEncoder();

/** Every way one character of a secret may be written in an echo of it. */
function characterPattern(char: string): string {
  const code = char.codePointAt(0)!;
  const forms = [escapeRegExp(char)];
  // Percent-encoding of each UTF-8 byte, either case of hex digits.
  forms.push([...utf8.encode(char)].map((byte) => `%${hexPattern(byte, 2)}`).join(''));
  // JSON \uXXXX escapes (a surrogate pair for characters outside the BMP).
  forms.push([...char].flatMap((c) => [...Array(c.length).keys()].map((i) => `\\\\u${hexPattern(c.charCodeAt(i), 4)}`)).join(''));
  // XML/HTML numeric character references, decimal or hex.
  forms.push(`&#0*${code};`, `&#[xX]0*${hexPattern(code, 1)};`);
  // The short escapes JSON and XML use for a few characters.
  const short: Record<string, string[]> = { '/': ['\\\\/'], '"': ['\\\\"', '&quot;'], '\\': ['\\\\\\\\'], '&': ['&amp;'], '<': ['&lt;'], '>': ['&gt;'], "'": ['&apos;'], ' ': ['\\+'] };
  forms.push(...(short[char] ?? []));
  return `(?:${forms.join('|')})`;
}

function secretPattern(secret: string): RegExp {
  return new RegExp([...secret].map(characterPattern).join(''), 'g');
}

/**
 * A redactor for these secrets (secret -> placeholder). Longest first, so a token that contains
 * another one is replaced whole; then the secret halves of `id|secret` tokens on their own.
 */
export function createRedactor(secrets: ReadonlyMap<string, string>): Redact {
  const variants: Array<{ raw: string; placeholder: string }> = [];
  for (const [secret, placeholder] of secrets) {
    if (secret.length >= MIN_SECRET_LENGTH) variants.push({ raw: secret, placeholder });
    const bar = secret.indexOf('|');
    const half = bar >= 0 ? secret.slice(bar + 1) : '';
    if (half.length >= MIN_HALF_LENGTH) variants.push({ raw: half, placeholder });
  }
  const patterns = variants.sort((a, b) => b.raw.length - a.raw.length).map(({ raw, placeholder }) => ({ pattern: secretPattern(raw), placeholder }));
  return (text) => {
    let out = text;
    for (const { pattern, placeholder } of patterns) out = out.replace(pattern, () => placeholder);
    // Whatever token we did not know about, never print a bearer credential.
    return out.replace(/(Bearer(?:\s|%20|\+)+)(?!\$)[^\s'"&]+/gi, '$1$FORMS_API_TOKEN');
  };
}

/** Redacts every string (and key) inside a JSON-like value. */
export function redactValue<T>(value: T, redact: Redact): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, redact)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), redactValue(v, redact)])) as T;
  }
  return value;
}
