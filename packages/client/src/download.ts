// What `submissions.downloadFile` sends: a file entry's signed `file_url`, or its parts, checked
// and turned into the downloadSubmissionFile operation. A signed URL is sent exactly as given
// (the signature covers it); it must belong to the client's own service, so that a URL from an
// unverified payload cannot make the client fetch an arbitrary host.
import { pathSegment } from './arguments.js';
import { invalidOption } from './errors.js';
import { describeOperation } from './operations.js';
import type { CallInit } from './call.js';

/** The parts of a signed file URL (`file_url`): as the spec names them. */
export interface SubmissionFileRef {
  /** The form's id or slug. */
  form: number | string;
  /** The stored file name, base64url-encoded (the last path segment of `file_url`). */
  filename: string;
  /** Unix time (seconds) after which the URL is refused. */
  expires: number | string;
  /** The URL's signature: 64 lowercase hex digits. */
  signature: string;
}

const OPERATION = 'downloadSubmissionFile';

export function downloadInit(file: string | URL | SubmissionFileRef, baseUrl: string, basePath: string): CallInit {
  if (typeof file === 'string' || file instanceof URL) return fromUrl(file, baseUrl, basePath);
  if (file === null || typeof file !== 'object')
    throw invalidOption('file', "must be a file entry's `file_url`, or { form, filename, expires, signature }.");
  const { form, filename, expires, signature } = file;
  if (!(
    (typeof form === 'number' && Number.isSafeInteger(form) && form > 0) ||
    (typeof form === 'string' && /^[^/?#\s]+$/.test(form))
  ))
    throw invalidOption('file.form', 'must be a positive integer id or a slug.');
  if (typeof form === 'string') pathSegment(form, 'file.form');
  if (typeof filename !== 'string' || !/^[A-Za-z0-9_-]{1,2048}$/.test(filename))
    throw invalidOption('file.filename', 'must be the base64url file name from the `file_url` path.');
  if (
    !(typeof expires === 'number'
      ? Number.isSafeInteger(expires) && expires >= 0
      : typeof expires === 'string' && /^\d{1,16}$/.test(expires))
  )
    throw invalidOption('file.expires', 'must be the `expires` Unix time from the `file_url` query.');
  if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature))
    throw invalidOption('file.signature', 'must be the 64 lowercase hex digits of the `file_url` signature.');
  return { params: { path: { form, filename } }, search: `?expires=${expires}&signature=${signature}` };
}

function fromUrl(file: string | URL, baseUrl: string, basePath: string): CallInit {
  let url: URL;
  try {
    url = new URL(file);
  } catch {
    // The URL is not echoed: it carries a signature that grants the file.
    throw invalidOption('file', "is not an absolute URL: pass a file entry's `file_url` as it is.");
  }
  // Neither host is named: option errors never echo `baseUrl` (it may carry a tenant's private
  // host), nor a file URL.
  if (url.origin !== new URL(baseUrl).origin)
    throw invalidOption(
      'file',
      "is not on the client's `baseUrl` (another scheme, host or port): the client only downloads from its own service; compare the `file_url` with your `baseUrl`, and create a client for that host if you trust it.",
    );
  const operation = describeOperation('GET', url.href, basePath);
  if (operation.operationId !== OPERATION || !operation.params)
    throw invalidOption('file', 'is not a submission file URL (/open/forms/{form}/submissions/file/{filename}).');
  if (!url.searchParams.has('expires') || !url.searchParams.has('signature'))
    throw invalidOption('file', 'has no `expires` and `signature`: pass the signed `file_url` whole.');
  return {
    params: { path: { form: pathSegment(operation.params['form']!, 'file'), filename: operation.params['filename']! } },
    search: url.search,
  };
}
