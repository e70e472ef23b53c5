// Renders a recorded exchange as a reproducible curl line with every secret replaced by a shell
// variable, so reports and logs can be shared without leaking tokens.
import type { Exchange } from '../model.js';
import type { Redact } from './placeholders.js';

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Quotes a value for a POSIX shell. Values with control characters use bash's $'…' quoting with
 * \xHH escapes, so the line still reproduces the request and prints nothing a terminal would obey.
 */
export function shellQuote(value: string): string {
  if (!CONTROL.test(value)) return `'${value.replaceAll("'", `'\\''`)}'`;
  const escaped = [...value]
    .map((c) => {
      if (c === '\\') return '\\\\';
      if (c === "'") return "\\'";
      return CONTROL.test(c)
        ? [...new TextEncoder().encode(c)].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')
        : c;
    })
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

export function toCurl(exchange: Exchange, redact: Redact): string {
  const parts = ['curl', '-sS', '-i'];
  if (exchange.method !== 'GET') parts.push('-X', exchange.method);
  for (const [name, value] of Object.entries(exchange.requestHeaders)) {
    if (SKIP_HEADERS.has(name.toLowerCase())) continue;
    if (name.toLowerCase() === 'authorization') {
      // Double quotes so the shell expands the variable; the value itself is never printed.
      const token = value.replace(/^Bearer\s+/i, '');
      const placeholder = redact(token);
      parts.push(
        '-H',
        `"Authorization: Bearer ${placeholder !== token && /^\$[A-Z_]+$/.test(placeholder) ? placeholder : '$FORMS_API_TOKEN'}"`,
      );
      continue;
    }
    parts.push('-H', shellQuote(`${name}: ${value}`));
  }
  if (exchange.requestBody !== undefined) parts.push('--data-raw', shellQuote(exchange.requestBody));
  parts.push(shellQuote(exchange.url));
  return redact(parts.join(' '));
}
