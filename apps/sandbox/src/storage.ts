// The sandbox's stand-in for the service's cloud storage: pre-signed URLs of stored files, valid
// for one minute (an S3-style query: X-Amz-Date, X-Amz-Expires, X-Amz-Signature), which the
// sandbox serves itself under /__sandbox/storage/ (routes/storage.ts). A download rule that
// redirects there hands files out as the service does when it keeps them on S3.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { StoredFile } from './files.js';
import type { Result } from '@forms-api/types';

export const STORAGE_PATH = '/__sandbox/storage';
/** How long a pre-signed URL is valid: the service asks its storage for one minute. */
export const PRESIGNED_URL_LIFETIME_S = 60;

export type StorageUrlProblem = 'bad-signature' | 'expired';

/** `20260115T090000Z` for a time in milliseconds, and back. */
const amzDate = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;
const fromAmzDate = (text: string) => {
  const m = AMZ_DATE.exec(text);
  return m
    ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]))
    : Number.NaN;
};

export function createStorage(now: () => number) {
  const key = randomBytes(32);
  const mac = (path: string, date: string, expires: string) =>
    createHmac('sha256', key).update(`${path}\n${date}\n${expires}`).digest('hex');
  const pathOf = (formId: number, encodedName: string) => `${STORAGE_PATH}/forms/${formId}/${encodedName}`;
  return {
    /** A URL of the file on the storage host, valid `lifetimeS` seconds from now. */
    presign(baseUrl: string, file: StoredFile, lifetimeS = PRESIGNED_URL_LIFETIME_S): string {
      const path = pathOf(file.formId, Buffer.from(file.name, 'utf8').toString('base64url'));
      const date = amzDate(now());
      const expires = String(lifetimeS);
      return `${baseUrl}${path}?X-Amz-Date=${date}&X-Amz-Expires=${expires}&X-Amz-Signature=${mac(path, date, expires)}`;
    },
    /** The file a storage URL names, when its signature is right and it has not expired. */
    check(
      formId: number,
      encodedName: string,
      query: { date?: string; expires?: string; signature?: string },
    ): Result<StoredFile, StorageUrlProblem> {
      const { date, expires, signature } = query;
      if (!date || !expires || !/^\d{1,6}$/.test(expires) || !signature || !/^[0-9a-f]{64}$/.test(signature))
        return { ok: false, error: 'bad-signature' };
      const expected = Buffer.from(mac(pathOf(formId, encodedName), date, expires), 'hex');
      if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return { ok: false, error: 'bad-signature' };
      const signedAt = fromAmzDate(date);
      if (Number.isNaN(signedAt) || signedAt + Number(expires) * 1000 < now()) return { ok: false, error: 'expired' };
      return { ok: true, value: { formId, name: Buffer.from(encodedName, 'base64url').toString('utf8') } };
    },
  };
}
export type Storage = ReturnType<typeof createStorage>;
