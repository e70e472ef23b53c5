import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { createFormsClient } from '@forms-api/client';
import { formFields, normaliseListedSubmission } from '@forms-api/client/submissions';
import { copySubmissionFiles, type FileStore } from '@forms-api/webhook-inbox';

const client = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

// Your store: here a folder, one file per answer and position. The respondent chose part of
// `fileName`: keep it as data, never as a path.
const store: FileStore = async ({ submissionKey, fieldId, index, body }) => {
  const folder = join('copied-files', submissionKey.replace(':', '-'));
  await mkdir(folder, { recursive: true });
  await pipeline(Readable.fromWeb(body as NodeReadableStream), createWriteStream(join(folder, `${fieldId}-${index}`)));
};

// In a worker's handler this is `delivery.submission`, copied as soon as it runs (a webhook's links
// last 24 hours by default, a listed submission's 10 minutes). Here: a submission of form 11.
const form = await client.forms.get(11);
const page = await client.submissions.list(11, { search: 'invoice-', perPage: 1 });
const submission = normaliseListedSubmission(page.data[0]!, formFields(form));

const copied = await copySubmissionFiles(submission, { client, store });
for (const [fieldId, answer] of Object.entries(copied.answers))
  for (const file of answer.files ?? []) console.log(fieldId, file.file_name, file.copy.size, file.copy.sha256);
