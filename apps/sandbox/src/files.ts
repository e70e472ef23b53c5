// Signed file URLs, like the service's: `expires` (unix seconds) and an HMAC `signature` over the
// path and expiry, with a key made per sandbox process. Valid 10 minutes in submission lists. And
// the file a signed URL hands out.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { create as contentDisposition } from 'content-disposition';
import type { Result } from '@forms-api/types';

export const FILE_URL_LIFETIME_S = 10 * 60;

export type FileUrlProblem = 'bad-signature' | 'expired';

/** Signs and checks file URLs under one base URL (the sandbox's configured one, never a request's Host). */
export function createFileSigner(now: () => number) {
  const key = randomBytes(32);
  const mac = (formId: number, encodedName: string, expires: number) =>
    createHmac('sha256', key).update(`${formId}/${encodedName}:${expires}`).digest('hex');
  return {
    url(baseUrl: string, formId: number, fileName: string, lifetimeS = FILE_URL_LIFETIME_S): string {
      const encoded = Buffer.from(fileName, 'utf8').toString('base64url');
      const expires = Math.floor(now() / 1000) + lifetimeS;
      return `${baseUrl}/open/forms/${formId}/submissions/file/${encoded}?expires=${expires}&signature=${mac(formId, encoded, expires)}`;
    },
    /** The file name when the signature is right and not expired. */
    check(
      formId: number,
      encodedName: string,
      expires: string | undefined,
      signature: string | undefined,
    ): Result<string, FileUrlProblem> {
      if (!expires || !/^\d+$/.test(expires) || !signature || !/^[0-9a-f]{64}$/.test(signature))
        return { ok: false, error: 'bad-signature' };
      const expected = Buffer.from(mac(formId, encodedName, Number(expires)), 'hex');
      if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return { ok: false, error: 'bad-signature' };
      if (Number(expires) * 1000 < now()) return { ok: false, error: 'expired' };
      return { ok: true, value: Buffer.from(encodedName, 'base64url').toString('utf8') };
    },
  };
}
export type FileSigner = ReturnType<typeof createFileSigner>;

/** A file or signature answer's stored names: the list without its empty entries. */
export const storedFileNames = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [value]).filter((n): n is string => typeof n === 'string' && n !== '');

/** A file a submission holds, found by a signed URL's name. */
export interface StoredFile {
  formId: number;
  name: string;
}

/** The bytes the sandbox serves for a stored file (it keeps names, not contents). */
export const fileContent = (file: StoredFile) => `Sandbox file ${file.name} of form ${file.formId}\n`;

/**
 * `attachment; filename="<name>"`, as the service writes it; for a name that cannot sit in quotes
 * as it is, RFC 6266's ASCII fallback plus filename* in UTF-8, so any stored name makes a valid header.
 */
export const attachmentDisposition = (name: string) =>
  /^[\x20-\x7e]*$/.test(name) && !/["\\]/.test(name) ? `attachment; filename="${name}"` : contentDisposition(name);

/** The file itself, as an attachment of type application/octet-stream (the service's own disk). */
export function fileAttachment(_ctx: unknown, file: StoredFile): Response {
  return new Response(fileContent(file), {
    status: 200,
    headers: { 'content-type': 'application/octet-stream', 'content-disposition': attachmentDisposition(file.name) },
  });
}
