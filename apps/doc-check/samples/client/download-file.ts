import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { createFormsClient } from '@forms-api/client';

const forms = createFormsClient({ baseUrl: process.env.FORMS_API_BASE_URL!, token: process.env.FORMS_API_TOKEN! });

// A `file_url` from a submission's `files` or `signature` answer: a signed link that needs no token.
const fileUrl = process.env.FORMS_FILE_URL!;
const response = await forms.submissions.downloadFile(fileUrl, { signal: AbortSignal.timeout(120_000) });
console.log(response.headers.get('content-type'), response.headers.get('content-length'));
await pipeline(Readable.fromWeb(response.body! as NodeReadableStream), createWriteStream('answer-file'));
