// Renders a recorded exchange as a reproducible curl line with every secret replaced by a shell
// variable, so reports and logs can be shared without leaking tokens.
import type { Exchange } from '../model.js';

const shellQuote = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;

/** Headers worth repeating in a repro; hop-by-hop and fetch-internal ones are noise. */
const SKIP_HEADERS = new Set(['content-length', 'host', 'connection', 'accept-encoding', 'user-agent', 'accept-language', 'sec-fetch-mode']);

/**
 * Replaces each known secret with its placeholder anywhere in a string. Longest first, so a token
 * that contains another one is replaced whole.
 */
export function redact(text: string, secrets: ReadonlyMap<string, string>): string {
  let out = text;
  for (const [secret, placeholder] of [...secrets].sort((a, b) => b[0].length - a[0].length)) {
    if (secret.length >= 4) out = out.split(secret).join(placeholder);
  }
  // Whatever token we did not know about, never print a bearer credential.
  return out.replace(/(Bearer\s+)(?!\$)[^\s'"]+/gi, '$1$FORMS_API_TOKEN');
}

export function toCurl(exchange: Exchange, secrets: ReadonlyMap<string, string>): string {
  const parts = ['curl', '-sS', '-i'];
  if (exchange.method !== 'GET') parts.push('-X', exchange.method);
  for (const [name, value] of Object.entries(exchange.requestHeaders)) {
    if (SKIP_HEADERS.has(name.toLowerCase())) continue;
    if (name.toLowerCase() === 'authorization') {
      // Double quotes so the shell expands the variable; the value itself is never printed.
      const placeholder = secrets.get(value.replace(/^Bearer\s+/i, '')) ?? '$FORMS_API_TOKEN';
      parts.push('-H', `"Authorization: Bearer ${placeholder}"`);
      continue;
    }
    parts.push('-H', shellQuote(`${name}: ${value}`));
  }
  if (exchange.requestBody !== undefined) parts.push('--data-raw', shellQuote(exchange.requestBody));
  parts.push(shellQuote(exchange.url));
  return redact(parts.join(' '), secrets);
}
