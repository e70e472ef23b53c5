// The sandbox's storage host (see storage.ts): serves a pre-signed URL's file as an
// application/octet-stream attachment, or 403 with a storage-style XML error when the URL was
// tampered with or has expired. Not part of the service's API; no token.
import type { Hono } from 'hono';
import type { SandboxContext } from '../context.js';
import { attachmentDisposition, fileContent } from '../files.js';
import { STORAGE_PATH } from '../storage.js';

const xmlError = (status: number, code: string, message: string) =>
  new Response(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>\n`,
    { status, headers: { 'content-type': 'application/xml' } },
  );

export function storageRoutes(app: Hono, ctx: SandboxContext): void {
  app.get(`${STORAGE_PATH}/forms/:formId/:name`, (c) => {
    const formId = Number(c.req.param('formId'));
    const checked = ctx.storage.check(formId, c.req.param('name'), {
      date: c.req.query('X-Amz-Date'),
      expires: c.req.query('X-Amz-Expires'),
      signature: c.req.query('X-Amz-Signature'),
    });
    if (!checked.ok) {
      return checked.error === 'expired'
        ? xmlError(403, 'AccessDenied', 'Request has expired; ask the download URL for a new one.')
        : xmlError(
            403,
            'SignatureDoesNotMatch',
            'The signature does not match this URL; use the Location the download answered with, unchanged.',
          );
    }
    return new Response(fileContent(checked.value), {
      status: 200,
      headers: {
        'content-type': 'application/octet-stream',
        'content-disposition': attachmentDisposition(checked.value.name),
      },
    });
  });
}
