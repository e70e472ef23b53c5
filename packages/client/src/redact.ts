// Removes the token from anything an error keeps (messages, bodies, headers, URLs), so that a
// server or proxy echoing it back cannot leak it into logs, snapshots or error reports.
export type Redact = (text: string) => string;

export const REDACTED = '[REDACTED]';

/** A redactor for one secret, matching it raw and percent-encoded. */
export function createRedactor(secret: string): Redact {
  const forms = [...new Set([secret, encodeURIComponent(secret)])].filter((s) => s.length > 0);
  return (text) => {
    let out = text;
    for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
    return out;
  };
}

/** Redacts every string inside plain JSON-like data (what a parsed error body is). */
export function redactDeep(value: unknown, redact: Redact, depth = 0): unknown {
  if (typeof value === 'string') return redact(value);
  if (value === null || typeof value !== 'object' || depth > 20) return value;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redact, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[redact(k)] = redactDeep(v, redact, depth + 1);
  return out;
}

// Response headers that carry credentials of their own; their values are never kept.
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'set-cookie', 'cookie']);

/** Response headers as a plain record (what errors keep), with secrets removed. */
export function headersRecord(headers: Headers, redact: Redact): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = SECRET_HEADERS.has(name) ? REDACTED : redact(value);
  });
  return out;
}
