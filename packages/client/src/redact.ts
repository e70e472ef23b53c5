// Removes the token from anything an error keeps (messages, bodies, headers, URLs), so that a
// server or proxy echoing it back, in whatever encoding, cannot leak it into logs or reports.
export type Redact = (text: string, options?: RedactOptions) => string;
import { CREDENTIAL_NAME, isCredentialHeader, REDACTED as MARKER } from '@forms-api/internal/credentials';

export interface RedactOptions {
  /**
   * `text` is the start of a longer text, cut off: an echo that runs into its end is redacted
   * too, as far as it goes (the rest of it may be what made it an echo).
   */
  readonly cut?: boolean;
}

/** What stands where the token was (the toolkit's one marker). Declared here so the types need nothing private. */
export const REDACTED: '[REDACTED]' = MARKER;

/**
 * A redactor for personal access tokens `<id>|<secret>` (one, or several). It finds each whole
 * token and, since the service accepts it alone, its secret half (when it is at least 8
 * characters), in every form a server, proxy or debug page could echo them: raw; each character
 * percent-encoded (any hex case, or twice, `%257C`, or `%u007C`), form-decoded (`+` as a space),
 * JSON/JS-escaped (`\u007c`, `\u{7c}`, `\x7c`, octal `\174`, `\/`), an HTML entity (`&#124;`,
 * `&#x7C;`, `&vert;`, numeric ones without `;`) or quoted-printable (`=7C`), mixed freely within
 * one echo, and split by line breaks, indentation, NULs (UTF-16 read as UTF-8) or
 * quoted-printable soft breaks; and as hex or base64 (standard or URL-safe, at any alignment, so
 * `base64("Bearer " + token)` too). The vectors are in test/vectors/redaction.json.
 *
 * A hand-written matcher rather than a regular expression: the expression for all these forms
 * took V8 tens of milliseconds to compile on first use, once per client. Why it is this long: the
 * encodings mix within one echo (`%7C` beside `\u007c`), so decoding the text once per encoding and
 * searching each result cannot find them; one scan that reads each character every way it can be
 * spelled can, and each way is a few lines (the vectors hold an echo of each).
 */
export function createRedactor(tokens: string | readonly string[]): Redact {
  const secrets = (typeof tokens === 'string' ? [tokens] : tokens).flatMap(secretsOf);
  // Built on first use: most clients never make an error, and a client is cheap to create.
  let encoded: EncodedSecret[] | undefined;
  let literals: string[] = [];
  return (text, options) => {
    if (!encoded) {
      encoded = secrets.map(encodedSecret);
      // Hex and base64 forms of a very short (test) token would match ordinary text.
      literals = secrets.filter((s) => s.length >= MIN_SECRET_HALF).flatMap((s) => [...base64Forms(s), ...hexForms(s)]);
    }
    const cut = options?.cut === true;
    const spans: Array<[number, number]> = [];
    for (const secret of encoded) find(text, secret, spans, cut);
    for (const literal of literals) {
      for (let at = text.indexOf(literal); at >= 0; at = text.indexOf(literal, at + 1))
        spans.push([at, at + literal.length]);
      // The start of a hex or base64 echo at a cut end.
      if (cut)
        for (let length = Math.min(literal.length - 1, text.length); length > 0; length--)
          if (text.endsWith(literal.slice(0, length))) {
            spans.push([text.length - length, text.length]);
            break;
          }
    }
    return spans.length === 0 ? text : replaceSpans(text, spans);
  };
}

function secretsOf(token: string): string[] {
  const bar = token.indexOf('|');
  const secretHalf = bar >= 0 ? token.slice(bar + 1) : '';
  return [token, ...(secretHalf.length >= MIN_SECRET_HALF ? [secretHalf] : [])].filter((s) => s.length > 0);
}

// The service's secrets are 48 characters; a shorter half is a test token, not worth blanking
// every occurrence of a common word for.
const MIN_SECRET_HALF = 8;

const NAMED_ENTITIES: ReadonlyArray<readonly [name: string, code: number]> = [
  ['&amp;', 0x26],
  ['&lt;', 0x3c],
  ['&gt;', 0x3e],
  ['&quot;', 0x22],
  ['&apos;', 0x27],
  ['&vert;', 0x7c],
  ['&verbar;', 0x7c],
  ['&VerticalLine;', 0x7c],
];

const PERCENT = 0x25;
const BACKSLASH = 0x5c;
const AMPERSAND = 0x26;
const SPACE = 0x20;
const PLUS = 0x2b;
const EQUALS = 0x3d;

/**
 * The lengths (as bits: bit n set for length n) of the ways the text at `at` can spell the
 * character `want`: as itself; `+` as a space (form decoding); `%7C`, `%7c`, `%257C`, `%u007C`;
 * `\u007c`, `\u{7c}`, `\x7c`, `\174` (octal), `\|`; `&#124;`, `&#x7C;`, `&vert;`, and the
 * numeric entities without `;` that HTML still reads; `=7C` (quoted-printable). No allocation:
 * this runs at every candidate position of every error string.
 */
function waysToSpell(text: string, at: number, want: number): number {
  const c = text.charCodeAt(at);
  let lengths = c === want || (c === SPACE && want === PLUS) ? 1 << 1 : 0;
  if (c === PERCENT) {
    const once = hexByte(text, at + 1);
    if (once === want) lengths |= 1 << 3;
    if (once === PERCENT && hexByte(text, at + 3) === want) lengths |= 1 << 5;
    if (
      (text.charCodeAt(at + 1) | 0x20) === 0x75 /* u */ &&
      hexByte(text, at + 2) === 0 &&
      hexByte(text, at + 4) === want
    )
      lengths |= 1 << 6;
  } else if (c === BACKSLASH) {
    const next = text.charCodeAt(at + 1);
    if (next === 0x75 /* u */) {
      if (hexByte(text, at + 2) === 0 && hexByte(text, at + 4) === want) lengths |= 1 << 6;
      if (text.charCodeAt(at + 2) === 0x7b /* { */) lengths |= braceEscapeLength(text, at, want);
    }
    if (next === 0x78 /* x */ && hexByte(text, at + 2) === want) lengths |= 1 << 4;
    if (next === want && !isAlphanumeric(want)) lengths |= 1 << 2;
    lengths |= octalLength(text, at + 1, want);
  } else if (c === AMPERSAND) {
    lengths |= entityLength(text, at, want);
  } else if (c === EQUALS && hexByte(text, at + 1) === want) {
    lengths |= 1 << 3;
  }
  return lengths;
}

/** `\u{7c}`, `\u{00007C}`: 1 to 6 hex digits in braces. */
function braceEscapeLength(text: string, at: number, want: number): number {
  let value = 0;
  let i = at + 3;
  for (const stop = i + 6; i < stop; i++) {
    const digit = hexDigit(text.charCodeAt(i));
    if (digit < 0) break;
    value = value * 16 + digit;
  }
  return i > at + 3 && text.charCodeAt(i) === 0x7d /* } */ && value === want ? 1 << (i + 1 - at) : 0;
}

/** `\174`: the lengths (backslash included) of 1 to 3 octal digits from `from` that spell `want`. */
function octalLength(text: string, from: number, want: number): number {
  let lengths = 0;
  let value = 0;
  for (let i = from; i < from + 3; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 55) break;
    value = value * 8 + (code - 48);
    if (value === want) lengths |= 1 << (i + 2 - from);
  }
  return lengths;
}

function isBlank(code: number): boolean {
  return code === SPACE || code === 0x09 || code === 0x0a || code === 0x0d;
}

/**
 * Where the next character of an echo may continue after what can separate two of its
 * characters: line breaks and indentation (a wrapped line, or a message that collapsed them to
 * spaces), NULs (UTF-16 read as UTF-8), and quoted-printable soft line breaks (`=` + CRLF).
 */
function skipSeparators(text: string, at: number): number {
  for (;;) {
    const c = text.charCodeAt(at);
    if (isBlank(c) || c === 0) at++;
    // `=` then a line break (or the space a collapsed message left of it).
    else if (c === EQUALS && isBlank(text.charCodeAt(at + 1))) at += 2;
    else return at;
  }
}

function entityLength(text: string, at: number, want: number): number {
  if (text.charCodeAt(at + 1) === 0x23 /* # */) {
    const hex = (text.charCodeAt(at + 2) | 0x20) === 0x78; /* x */
    let value = 0;
    let i = at + (hex ? 3 : 2);
    for (const stop = i + 8; i < stop; i++) {
      const code = text.charCodeAt(i);
      const digit = hex ? hexDigit(code) : code >= 48 && code <= 57 ? code - 48 : -1;
      if (digit < 0) break;
      value = value * (hex ? 16 : 10) + digit;
    }
    const digits = i - at - (hex ? 3 : 2);
    if (digits === 0 || value !== want) return 0;
    // HTML reads a numeric entity without its `;` too.
    return (1 << (i - at)) | (text.charCodeAt(i) === 0x3b /* ; */ ? 1 << (i + 1 - at) : 0);
  }
  let lengths = 0;
  for (const [name, code] of NAMED_ENTITIES)
    if (code === want && text.startsWith(name, at)) lengths |= 1 << name.length;
  return lengths;
}

function isAlphanumeric(code: number): boolean {
  return (code >= 48 && code <= 57) || ((code | 0x20) >= 97 && (code | 0x20) <= 122);
}

function hexByte(text: string, at: number): number {
  const hi = hexDigit(text.charCodeAt(at));
  const lo = hexDigit(text.charCodeAt(at + 1));
  return hi < 0 || lo < 0 ? -1 : hi * 16 + lo;
}

function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/** Finds one secret, encoded any of the ways above: see `find`. */
interface EncodedSecret {
  /** Where an echo can begin: the first character itself, or an escape (`%`, `\\`, `&`, a space). */
  readonly starts: RegExp;
  readonly codes: readonly number[];
}

function encodedSecret(secret: string): EncodedSecret {
  const first = secret[0]!.replace(/[\\\]^-]/, '\\$&');
  return { starts: new RegExp(`[%\\\\&= ${first}]`, 'g'), codes: [...secret].map((c) => c.charCodeAt(0)) };
}

/**
 * Adds to `spans` every stretch of `text` whose characters, each read as itself or as one of the
 * escapes above, spell the secret; leftmost first, not overlapping. The scan jumps between the
 * places an echo can begin. Where two escapes of different lengths spell the same character
 * (`%25` and `%`), the attempts branch; `dead` remembers the branch points that cannot complete,
 * so that no text costs more than its length times the secret's. It is bounded: an attempt never
 * looks back past where it began.
 */
function find(text: string, { starts, codes }: EncodedSecret, spans: Array<[number, number]>, cut: boolean): void {
  const width = codes.length + 1;
  const dead = new Set<number>();
  const completeFrom = (start: number, first: number): number => {
    let at = start;
    for (let matched = first; matched < codes.length; matched++) {
      // At a cut end the echo may go on past the text, even from inside an escape.
      if (cut && endsInEscape(text, at)) return text.length;
      let lengths = at < text.length ? waysToSpell(text, at, codes[matched]!) : 0;
      if (lengths === 0 && matched > 0) {
        const next = skipSeparators(text, at);
        if (next !== at) {
          if (cut && endsInEscape(text, next)) return text.length;
          if (next < text.length) {
            at = next;
            lengths = waysToSpell(text, at, codes[matched]!);
          }
        }
      }
      if (lengths === 0) return -1;
      // One way (by far the usual case): follow it without recursion or memory.
      if ((lengths & (lengths - 1)) === 0) {
        at += 31 - Math.clz32(lengths);
        continue;
      }
      if (dead.has(at * width + matched)) return -1;
      for (let rest = lengths; rest !== 0; rest &= rest - 1) {
        const end = completeFrom(at + (31 - Math.clz32(rest & -rest)), matched + 1);
        if (end >= 0) return end;
      }
      if (dead.size >= 65_536) dead.clear();
      dead.add(at * width + matched);
      return -1;
    }
    return at;
  };
  starts.lastIndex = 0;
  for (let found = starts.exec(text); found; found = starts.exec(text)) {
    const end = completeFrom(found.index, 0);
    if (end >= 0) {
      spans.push([found.index, end]);
      starts.lastIndex = end;
    }
  }
}

/** The longest spelling of one character `waysToSpell` reads (`&VerticalLine;`). */
const LONGEST_SPELLING = 14;

/** Whether `at` is the end of the text, or begins an escape the end of the text may have cut. */
function endsInEscape(text: string, at: number): boolean {
  if (at >= text.length) return true;
  const c = text.charCodeAt(at);
  return text.length - at < LONGEST_SPELLING && (c === PERCENT || c === BACKSLASH || c === AMPERSAND || c === EQUALS);
}

function replaceSpans(text: string, spans: Array<[number, number]>): string {
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let out = '';
  let cursor = 0;
  for (const [start, end] of spans) {
    if (end <= cursor) continue;
    out += start >= cursor ? `${text.slice(cursor, start)}${REDACTED}` : '';
    cursor = end;
  }
  return out + text.slice(cursor);
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
    forms.push(stable, stable.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...new Set(forms)];
}

function hexForms(secret: string): string[] {
  const hex = [...new TextEncoder().encode(secret)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return [hex, hex.toUpperCase()];
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
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
      Object.defineProperty(copy, isArray ? key : redact(key), {
        value: out,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return root;
}

/** Response headers as a plain record (what errors keep), with credential-like ones removed. */
export function headersRecord(headers: Headers, redact: Redact): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[redact(name)] = isCredentialHeader(name, value) ? REDACTED : redact(value);
  });
  return out;
}

/**
 * A URL with the values of credential-like query and fragment parameters replaced (by name, the
 * toolkit's one rule: the service's `signature`, storage's `X-Amz-Credential`, a redirect's
 * `client_secret` or `code`): each `name=value`
 * that follows a `?`, `&`, `#` or `;` (the name runs to the first `=`, the value to the next `&`,
 * `#` or `;`). A scan in one pass, not a regular expression: the expression backtracked over every
 * separator, so that a URL of 60 000 `?` (a redirect's, a download link's) took seconds.
 */
export function withoutQuerySecrets(url: string): string {
  let out = '';
  let copied = 0;
  let at = 0;
  while (at < url.length && !(endsValue(url.charCodeAt(at)) || url.charCodeAt(at) === QUESTION)) at++;
  // Each character is looked at once: every `at` below is a separator, and scans only go forward.
  while (at < url.length) {
    // The name runs to the first `=`. A `&`, `#` or `;` first means no parameter starts here, nor
    // at a `?` before that one (its name would run to the same place): go on from there.
    let end = at + 1;
    while (end < url.length && !(endsValue(url.charCodeAt(end)) || url.charCodeAt(end) === EQUALS)) end++;
    if (url.charCodeAt(end) !== EQUALS) {
      at = end;
      continue;
    }
    let valueEnd = end + 1;
    while (valueEnd < url.length && !endsValue(url.charCodeAt(valueEnd))) valueEnd++;
    if (CREDENTIAL_NAME.test(decodeName(url.slice(at + 1, end)))) {
      out += `${url.slice(copied, end + 1)}${REDACTED}`;
      copied = valueEnd;
    }
    at = valueEnd;
  }
  return copied === 0 ? url : out + url.slice(copied);
}

/** `&`, `#` and `;` end a value (which may hold `?` and `=`), and a name (which may hold `?`). */
function endsValue(code: number): boolean {
  return code === AMPERSAND || code === HASH || code === SEMICOLON;
}

const QUESTION = 0x3f;
const HASH = 0x23;
const SEMICOLON = 0x3b;

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}
