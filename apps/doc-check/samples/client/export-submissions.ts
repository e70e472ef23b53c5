// #region export
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createFormsClient } from '@forms-api/client';
import { exportSubmissions } from '@forms-api/client/submissions';

// Paced at the service's 100 requests a minute: a long export meets no 429.
const forms = createFormsClient({
  baseUrl: process.env.FORMS_API_BASE_URL!,
  token: process.env.FORMS_API_TOKEN!,
  pacing: { requestsPerMinute: 100 },
});

/** Writes form 11's submissions after `since` (all of them without it); returns where to resume. */
async function exportContactForm(file: string, since?: string): Promise<string | null> {
  const summary = await exportSubmissions(forms, 11, {
    format: 'ndjson', // or 'csv'
    to: Writable.toWeb(createWriteStream(file)), // any WritableStream, or a function (text) => …
    ...(since !== undefined && { since }),
    onProgress: ({ written, total }) => console.error(`${written} written (the list holds ${total})`),
  });
  console.log(`${summary.written} submissions in ${file}, ${summary.pages + summary.formReads} requests`);
  return summary.cursor;
}

// Keep the cursor (a file, a database row): the next run writes exactly what is new since.
const cursor = await exportContactForm(join(tmpdir(), 'contact-1.ndjson'));
await exportContactForm(join(tmpdir(), 'contact-2.ndjson'), cursor ?? undefined);
// #endregion
