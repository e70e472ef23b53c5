// A new user's trial: `secret: process.env.FORMS_WEBHOOK_SECRET!` with the variable unset was
// accepted when it was the first secret the process used (the one-entry key cache started out
// "holding" undefined), and every delivery then failed as a signature mismatch. Each call below is
// the first use of a secret in this file's fresh module graph.
import { describe, expect, it } from 'vitest';
import { createVerifier, isWebhookVerifyError, verify } from '../src/node.js';
import { createWebhookListener } from '../src/adapters/node.js';

const unset = process.env.FORMS_WEBHOOK_SECRET_THAT_IS_NOT_SET as string;

describe('an undefined secret', () => {
  it('is refused by verify on the first call of the process', async () => {
    const error = await verify(unset, '{}', 'sha256=' + '0'.repeat(64)).catch((e: unknown) => e);
    expect(isWebhookVerifyError(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'invalid_secret' });
  });

  it('is refused by createVerifier and by an adapter when they are created', () => {
    expect(() => createVerifier({ secret: unset })).toThrow(expect.objectContaining({ kind: 'invalid_secret' }));
    expect(() => createWebhookListener({ secret: unset }, () => {})).toThrow(
      expect.objectContaining({ kind: 'invalid_secret' }),
    );
  });
});
