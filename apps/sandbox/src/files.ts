// Signed file URLs, like the service's: `expires` (unix seconds) and an HMAC `signature` over the
// path and expiry, with a key made per sandbox process. Valid 10 minutes in submission lists.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const FILE_URL_LIFETIME_S = 10 * 60;

export function createFileSigner(now: () => number) {
  const key = randomBytes(32);
  const mac = (formId: number, encodedName: string, expires: number) => createHmac('sha256', key).update(`${formId}/${encodedName}:${expires}`).digest('hex');
  return {
    url(origin: string, formId: number, fileName: string, lifetimeS = FILE_URL_LIFETIME_S): string {
      const encoded = Buffer.from(fileName, 'utf8').toString('base64url');
      const expires = Math.floor(now() / 1000) + lifetimeS;
      return `${origin}/open/forms/${formId}/submissions/file/${encoded}?expires=${expires}&signature=${mac(formId, encoded, expires)}`;
    },
    /** The file name when the signature is right and not expired; undefined otherwise. */
    check(formId: number, encodedName: string, expires: string | undefined, signature: string | undefined): string | undefined {
      if (!expires || !/^\d+$/.test(expires) || !signature || !/^[0-9a-f]{64}$/.test(signature)) return undefined;
      const expected = Buffer.from(mac(formId, encodedName, Number(expires)), 'hex');
      if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return undefined;
      if (Number(expires) * 1000 < now()) return undefined;
      return Buffer.from(encodedName, 'base64url').toString('utf8');
    },
  };
}
export type FileSigner = ReturnType<typeof createFileSigner>;
