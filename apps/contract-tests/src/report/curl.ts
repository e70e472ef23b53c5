// Renders a recorded exchange as a reproducible curl line with every secret replaced by a shell
// variable, so reports and logs can be shared without leaking tokens. Each value is redacted first
// and quoted last: a rewrite of a quoted line (a redaction rule eating a backslash) can end a quote
// early, and whatever a respondent wrote would then run on the machine of whoever pastes the line.
import { tokenOf, type Exchange } from '../model.js';
import type { Redact } from './placeholders.js';
import { UNPRINTABLE_CHAR } from './printable.js';

/** Longest value a repro keeps (a URL taken from a tenant's link, a body, can be anything). */
export const MAX_REPRO_VALUE_CHARS = 4_000;

/** Written as \xHH inside $'…': quotes, backslashes, history's `!` and whatever a terminal could obey. */
const escapedInAnsiC = (c: string): boolean => c === "'" || c === '\\' || c === '!' || UNPRINTABLE_CHAR.test(c);

/**
 * Quotes a value for a POSIX shell: '…' when it holds neither a quote nor a character a terminal
 * could obey (control characters, line separators, bidi controls); otherwise bash's $'…' with such
 * characters, quotes and backslashes as \xHH escapes of their UTF-8 bytes. Either way the only
 * quotes of the result are its two delimiters, and the line reproduces the request exactly.
 */
export function shellQuote(value: string): string {
  if (!UNPRINTABLE_CHAR.test(value) && !value.includes("'")) return `'${value}'`;
  const escaped = [...value]
    .map((c) =>
      escapedInAnsiC(c)
        ? [...new TextEncoder().encode(c)].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')
        : c,
    )
    .join('');
  return `$'${escaped}'`;
}

/** Headers worth repeating in a repro; hop-by-hop and fetch-internal ones are noise. */
const SKIP_HEADERS = new Set([
  'content-length',
  'host',
  'connection',
  'accept-encoding',
  'user-agent',
  'accept-language',
  'sec-fetch-mode',
]);

/** A value as a repro sends it: redacted, cut past the limit (saying so), then quoted. */
function quoted(value: string, redact: Redact): string {
  const text = redact(value);
  return shellQuote(
    text.length > MAX_REPRO_VALUE_CHARS
      ? `${text.slice(0, MAX_REPRO_VALUE_CHARS)}… (${(text.length - MAX_REPRO_VALUE_CHARS).toLocaleString('en-US')} more characters cut from this repro)`
      : text,
  );
}

/** The curl line; nothing may rewrite it afterwards (report/repros.ts keeps it out of text-wide redaction). */
export function toCurl(exchange: Exchange, redact: Redact): string {
  const parts = ['curl', '-sS', '-i'];
  if (exchange.method !== 'GET')
    parts.push('-X', /^[A-Z]+$/.test(exchange.method) ? exchange.method : quoted(exchange.method, redact));
  for (const [name, value] of Object.entries(exchange.requestHeaders)) {
    if (SKIP_HEADERS.has(name.toLowerCase())) continue;
    if (name.toLowerCase() === 'authorization') {
      // Double quotes so the shell expands the variable; the value itself is never printed.
      const token = tokenOf(value);
      const placeholder = redact(token);
      parts.push(
        '-H',
        `"Authorization: Bearer ${placeholder !== token && /^\$[A-Z_]+$/.test(placeholder) ? placeholder : '$FORMS_API_TOKEN'}"`,
      );
      continue;
    }
    parts.push('-H', quoted(`${name}: ${value}`, redact));
  }
  if (exchange.requestBody !== undefined) parts.push('--data-raw', quoted(exchange.requestBody, redact));
  parts.push(quoted(exchange.url, redact));
  return parts.join(' ');
}
