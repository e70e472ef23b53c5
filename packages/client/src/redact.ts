// Removes the token from anything an error keeps (messages, bodies, headers, URLs), so that a
// server or proxy echoing it back, in whatever encoding, cannot leak it into logs or reports.
export type Redact = (text: string) => string;

export const REDACTED = '[REDACTED]';

/**
 * A redactor for a personal access token `<id>|<secret>`. It matches the whole token and, since
 * the service accepts it alone, the secret half (when it is at least 8 characters), in every form
 * a server, proxy or debug page could echo them: raw; each character percent-encoded (any hex
 * case, or twice, `%257C`), form-decoded (`+` as a space), JSON/JS-escaped (`\u007c`, `\x7c`,
 * `\/`) or an HTML entity (`&#124;`, `&#x7C;`, `&vert;`), mixed freely within one echo; and as
 * hex or base64 (standard or URL-safe, at any alignment, so `base64("Bearer " + token)` too).
 */
export function createRedactor(token: string): Redact {
  const bar = token.indexOf('|');
  const secretHalf = bar >= 0 ? token.slice(bar + 1) : '';
  const secrets = [token, ...(secretHalf.length >= MIN_SECRET_HALF ? [secretHalf] : [])].filter((s) => s.length > 0);
  if (secrets.length === 0) return (text) => text;
  // Hex and base64 forms of a very short (test) token would match ordinary text.
  const long = secrets.filter((s) => s.length >= MIN_SECRET_HALF);
  const pattern = new RegExp([...secrets.map(encodedForms), ...long.flatMap(base64Forms), ...long.map(hexForm)].join('|'), 'g');
  return (text) => text.replace(pattern, REDACTED);
}

// The service's secrets are 48 characters; a shorter half is a test token, not worth blanking
// every occurrence of a common word for.
const MIN_SECRET_HALF = 8;

const NAMED_ENTITIES: Readonly<Record<string, readonly string[]>> = {
  '&': ['&amp;'],
  '<': ['&lt;'],
  '>': ['&gt;'],
  '"': ['&quot;'],
  "'": ['&apos;'],
  '|': ['&vert;', '&verbar;', '&VerticalLine;'],
};

/** One alternation per character: every way that one character may have been written. */
function encodedForms(secret: string): string {
  let source = '';
  for (const char of secret) {
    const code = char.charCodeAt(0);
    const hex = anyCaseHex(code.toString(16).padStart(2, '0'));
    const ways = [
      escapeRegExp(char),
      `%${hex}`,
      `%25${hex}`,
      `\\\\u00${hex}`,
      `\\\\x${hex}`,
      `&#0{0,4}${code};`,
      `&#[xX]0{0,4}${hex};`,
      ...(NAMED_ENTITIES[char] ?? []).map(escapeRegExp),
    ];
    if (!/[A-Za-z0-9]/.test(char)) ways.push(`\\\\${escapeRegExp(char)}`);
    if (char === '+') ways.push(' ', '%20');
    source += `(?:${ways.join('|')})`;
  }
  return source;
}

/**
 * The part of a base64 text that depends only on the secret, for each of the three alignments
 * the secret can have inside a longer encoded value (what GitHub Actions masks, for the same
 * reason). Characters mixed with the neighbouring bytes are left out.
 */
function base64Forms(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  const forms: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const padded = new Uint8Array(offset + bytes.length);
    padded.set(bytes, offset);
    const full = Math.floor(padded.length / 3) * 4;
    const stable = toBase64(padded).slice(Math.ceil((offset * 4) / 3), full);
    if (stable.length < 8) continue;
    forms.push(escapeRegExp(stable), escapeRegExp(stable.replace(/\+/g, '-').replace(/\//g, '_')));
  }
  return forms;
}

function hexForm(secret: string): string {
  return [...new TextEncoder().encode(secret)].map((b) => anyCaseHex(b.toString(16).padStart(2, '0'))).join('');
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

function anyCaseHex(hex: string): string {
  return hex.replace(/[a-f]/g, (d) => `[${d}${d.toUpperCase()}]`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/** How deep `redactDeep` copies; deeper values are replaced by a marker, never passed through. */
export const MAX_DEPTH = 32;
export const TOO_DEEP = `[nested deeper than ${MAX_DEPTH} levels: not kept]`;

/**
 * A copy of plain JSON-like data (what a parsed error body is) with every string and key
 * redacted. Iterative, so depth cannot overflow the stack; past `MAX_DEPTH` a value is replaced
 * by `TOO_DEEP`, so that neither a hole in the redaction nor a logger's recursion can follow.
 */
export function redactDeep(value: unknown, redact: Redact): unknown {
  if (typeof value === 'string') return redact(value);
  if (value === null || typeof value !== 'object') return value;
  const root: unknown = Array.isArray(value) ? [] : {};
  const work: Array<[source: object, copy: object, depth: number]> = [[value, root as object, 1]];
  for (let item = work.pop(); item; item = work.pop()) {
    const [source, copy, depth] = item;
    const isArray = Array.isArray(source);
    for (const [key, child] of Object.entries(source)) {
      let out: unknown = child;
      if (typeof child === 'string') out = redact(child);
      else if (child !== null && typeof child === 'object') {
        if (depth >= MAX_DEPTH) out = TOO_DEEP;
        else {
          out = Array.isArray(child) ? [] : {};
          work.push([child, out as object, depth + 1]);
        }
      }
      // defineProperty, not assignment: a key named "__proto__" must stay a plain property.
      Object.defineProperty(copy, isArray ? key : redact(key), { value: out, enumerable: true, writable: true, configurable: true });
    }
  }
  return root;
}

// Response headers that carry credentials of their own; their values are never kept.
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'set-cookie', 'cookie']);

/** Response headers as a plain record (what errors keep), with secrets removed. */
export function headersRecord(headers: Headers, redact: Redact): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[redact(name)] = SECRET_HEADERS.has(name) ? REDACTED : redact(value);
  });
  return out;
}
