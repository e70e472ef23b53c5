// Copies the files of a submission's answers into a store of the user's while their signed links
// still work (a webhook's for 24 h by default, a listed submission's for 10 minutes, and the
// service may delete the files later), hashing the bytes as the store reads them, so the copy can
// be checked against what was downloaded.
import { createHash } from 'node:crypto';
import type { FormsClient } from '@forms-api/client';
import type { NormalisedAnswer, NormalisedSubmission } from '@forms-api/client/submissions';
import { InboxError } from './errors.js';

type FileEntry = NonNullable<NormalisedAnswer['files']>[number];

/** One file to store: where it belongs, and its bytes as they download. */
export interface FileToStore {
  /** The submission's `<form>:<id>` key. */
  readonly submissionKey: string;
  /** The answer's field id, and the file's position in that answer. */
  readonly fieldId: string;
  readonly index: number;
  /** The stored file name the service gave (the respondent chose part of it: never a path to trust). */
  readonly fileName: string;
  /** The downloaded `content-type`, or null. */
  readonly contentType: string | null;
  /** The bytes: read it to its end before the store's promise resolves. */
  readonly body: ReadableStream<Uint8Array>;
}

/** Where files are copied to (a bucket, a disk): resolves once the whole body is stored. */
export type FileStore = (file: FileToStore) => Promise<void>;

/** A file entry after its copy: the bytes the store read, counted and hashed. */
export type CopiedFileEntry = FileEntry & { readonly copy: { readonly size: number; readonly sha256: string } };

/** The submission, each file entry of its answers carrying its copy's size and hash. */
export type SubmissionWithCopies = Omit<NormalisedSubmission, 'answers'> & {
  readonly answers: Readonly<Record<string, Omit<NormalisedAnswer, 'files'> & { files: CopiedFileEntry[] | null }>>;
};

export interface CopyFilesOptions {
  /** A client of the forms API (`createFormsClient`): the downloads go through its `submissions.downloadFile`. */
  client: Pick<FormsClient, 'submissions'>;
  store: FileStore;
  /** Stops the copies (a worker's handler passes its own `signal`). */
  signal?: AbortSignal;
}

/**
 * Downloads each file of the submission's answers, one at a time, through the store. Fails with
 * an InboxError `file_not_copied` (its cause: the download's or the store's error) naming the field
 * and position of the first file that could not be copied; a handler that lets it throw is retried.
 */
export async function copySubmissionFiles(
  submission: NormalisedSubmission,
  { client, store, signal }: CopyFilesOptions,
): Promise<SubmissionWithCopies> {
  const answers: Record<string, SubmissionWithCopies['answers'][string]> = {};
  for (const [fieldId, answer] of Object.entries(submission.answers)) {
    const copies: CopiedFileEntry[] = [];
    for (const [index, entry] of (answer.files ?? []).entries())
      copies.push({ ...entry, copy: await copyOne(submission.key, fieldId, index, entry, client, store, signal) });
    answers[fieldId] = { ...answer, files: answer.files === null ? null : copies };
  }
  return { ...submission, answers };
}

async function copyOne(
  submissionKey: string,
  fieldId: string,
  index: number,
  entry: FileEntry,
  client: CopyFilesOptions['client'],
  store: FileStore,
  signal: AbortSignal | undefined,
): Promise<{ size: number; sha256: string }> {
  const where = { submissionKey, fieldId, index };
  // The message names the field and position only: the file name is the respondent's, the URL a grant.
  const notCopied = (what: string, cause?: unknown) =>
    new InboxError('file_not_copied', `File ${index} of answer ${fieldId} (submission ${submissionKey}) ${what}`, {
      context: where,
      ...(cause === undefined ? {} : { cause }),
    });
  let response: Response;
  try {
    response = await client.submissions.downloadFile(entry.file_url, signal ? { signal } : undefined);
  } catch (error) {
    throw notCopied('could not be downloaded (an expired link answers 403: copy files as soon as they arrive).', error);
  }
  const hash = createHash('sha256');
  let size = 0;
  let ended = false;
  // Aborting the pipe cancels the download, whether or not the store still holds a reader.
  const pipe = new AbortController();
  const body = response.body!.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        hash.update(chunk);
        size += chunk.byteLength;
        controller.enqueue(chunk);
      },
      flush() {
        ended = true;
      },
    }),
    { signal: pipe.signal },
  );
  try {
    await store({ ...where, fileName: entry.file_name, contentType: response.headers.get('content-type'), body });
  } catch (error) {
    pipe.abort();
    throw notCopied('was not stored: the store failed.', error);
  }
  if (!ended) {
    pipe.abort();
    throw notCopied(
      `was not stored whole: the store resolved after reading ${size} bytes, before the end. Read \`body\` to its end before resolving.`,
    );
  }
  return { size, sha256: hash.digest('hex') };
}
