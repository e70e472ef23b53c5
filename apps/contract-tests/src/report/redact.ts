// Replaces every secret of a run (the targets' tokens, webhook secrets) with its placeholder in text
// that leaves the process, so reports and logs can be shared without leaking tokens.

/** A function that redacts text; built once per set of secrets. */
export type Redact = (text: string) => string;

/**
 * A redactor for these secrets (secret -> placeholder). Longest first, so a token that contains
 * another one is replaced whole.
 */
export function createRedactor(secrets: ReadonlyMap<string, string>): Redact {
  const ordered = [...secrets].filter(([secret]) => secret.length >= 4).sort((a, b) => b[0].length - a[0].length);
  return (text) => {
    let out = text;
    for (const [secret, placeholder] of ordered) out = out.split(secret).join(placeholder);
    // Whatever token we did not know about, never print a bearer credential.
    return out.replace(/(Bearer\s+)(?!\$)[^\s'"]+/gi, '$1$FORMS_API_TOKEN');
  };
}
