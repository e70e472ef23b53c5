// Signed file URLs, like the service's: `expires` (unix seconds) and an HMAC `signature` over the
// path and expiry, with a key made per sandbox process. Valid 10 minutes in submission lists.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { err, ok, type Result } from './result.js';

export const FILE_URL_LIFETIME_S = 10 * 60;

export type FileUrlProblem = 'bad-signature' | 'expired';

/** Signs and checks file URLs under one base URL (the sandbox's configured one, never a request's Host). */
export function createFileSigner(now: () => number) {
  const key = randomBytes(32);
  const mac = (formId: number, encodedName: string, expires: number) => createHmac('sha256', key).update(`${formId}/${encodedName}:${expires}`).digest('hex');
  return {
    url(baseUrl: string, formId: number, fileName: string, lifetimeS = FILE_URL_LIFETIME_S): string {
      const encoded = Buffer.from(fileName, 'utf8').toString('base64url');
      const expires = Math.floor(now() / 1000) + lifetimeS;
      return `${baseUrl}/open/forms/${formId}/submissions/file/${encoded}?expires=${expires}&signature=${mac(formId, encoded, expires)}`;
    },
    /** The file name when the signature is right and not expired. */
    check(formId: number, encodedName: string, expires: string | undefined, signature: string | undefined): Result<string, FileUrlProblem> {
      if (!expires || !/^\d+$/.test(expires) || !signature || !/^[0-9a-f]{64}$/.test(signature)) return err('bad-signature');
      const expected = Buffer.from(mac(formId, encodedName, Number(expires)), 'hex');
      if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return err('bad-signature');
      if (Number(expires) * 1000 < now()) return err('expired');
      return ok(Buffer.from(encodedName, 'base64url').toString('utf8'));
    },
  };
}
export type FileSigner = ReturnType<typeof createFileSigner>;
