// The secrets of a run (targets' tokens, webhook secrets) shown as their placeholders in whatever
// leaves the process. Finding a secret, in every encoding, is the client's redactor's job: the
// toolkit has one redactor, and this module only says which placeholder stands for which secret.
import { createRedactor as createTokenRedactor, REDACTED, redactDeep } from '@forms-api/client/redact';

/** A function that redacts text; built once per set of secrets. */
export type Redact = (text: string) => string;

/** Shortest secret worth replacing: shorter strings would blank out ordinary words and numbers. */
const MIN_SECRET_LENGTH = 4;

/**
 * A redactor for these secrets (secret -> placeholder), longest first so a token that contains
 * another one is replaced whole. Then, whatever token the run did not know about, a bearer
 * credential is never printed.
 */
export function createPlaceholderRedactor(secrets: ReadonlyMap<string, string>): Redact {
  const redactors = [...secrets]
    .filter(([secret]) => secret.length >= MIN_SECRET_LENGTH)
    .sort(([a], [b]) => b.length - a.length)
    .map(([secret, placeholder]) => ({ redact: createTokenRedactor(secret), placeholder }));
  return (text) => {
    let out = text;
    for (const { redact, placeholder } of redactors) {
      const replaced = redact(out);
      // The client marks what it removed; the suite names the variable that holds it instead.
      if (replaced !== out) out = replaced.split(REDACTED).join(placeholder);
    }
    // A backslash is taken only with the character it escapes, never before a quote: eating the
    // backslash of \" or \' would end a JSON string or a shell quote early.
    return out.replace(/(Bearer(?:\s|%20|\+)+)(?!\$)(?:[^\s'"&\\]|\\[^\s'"])+/gi, '$1$FORMS_API_TOKEN');
  };
}

/** Redacts every string (and key) inside a JSON-like value (the client's deep copy, depth-capped). */
export function redactValue<T>(value: T, redact: Redact): T {
  return redactDeep(value, redact) as T;
}
