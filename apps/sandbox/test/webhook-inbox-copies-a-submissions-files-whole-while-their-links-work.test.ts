// A submission's files are copied through the user's store while their signed links work, each
// with the size and SHA-256 of the bytes the store read; a copy that could not be made whole (an
// expired link, a failing store, a store that stopped reading) is a typed error, never a short file.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFormsClient, isFormsApiError } from '@forms-api/client';
import { formFields, normaliseListedSubmission, type NormalisedSubmission } from '@forms-api/client/submissions';
import { copySubmissionFiles, isInboxError, type FileToStore } from '@forms-api/webhook-inbox';
import type { SandboxHandle } from '../src/index.js';
import { call, sandbox } from './support.js';

const FORM = 11;
let sb: SandboxHandle;
let client: ReturnType<typeof createFormsClient>;
let withFiles: NormalisedSubmission;

beforeAll(async () => {
  // Observed: a file URL answers 302 to pre-signed storage, as the service's S3 disk does.
  sb = await sandbox({ behaviour: 'observed' });
  client = createFormsClient({ baseUrl: sb.baseUrl, token: sb.tokens.read! });
  const form = (await call(sb.baseUrl, 'GET', `/open/forms/${FORM}`, { token: sb.tokens.read })).body;
  const listed = (
    await call(sb.baseUrl, 'GET', `/open/forms/${FORM}/submissions?search=invoice-&per_page=3`, {
      token: sb.tokens.read,
    })
  ).body.data;
  withFiles = normaliseListedSubmission(listed[0], formFields(form));
});
afterAll(() => sb?.close());

const fileAnswers = (s: NormalisedSubmission) => Object.entries(s.answers).filter(([, a]) => a.files?.length);

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  return Buffer.from(await new Response(stream).arrayBuffer());
}

describe('copySubmissionFiles', () => {
  it('stores every file whole, and gives each entry the size and hash of the bytes stored', async () => {
    expect(fileAnswers(withFiles).length).toBeGreaterThan(0);
    const stored = new Map<string, { file: Omit<FileToStore, 'body'>; bytes: Buffer }>();
    const copied = await copySubmissionFiles(withFiles, {
      client,
      store: async ({ body, ...file }) => {
        stored.set(`${file.fieldId}/${file.index}`, { file, bytes: await bytesOf(body) });
      },
    });
    for (const [fieldId, answer] of fileAnswers(withFiles)) {
      const copies = copied.answers[fieldId]!.files!;
      expect(copies.map((c) => c.file_name)).toEqual(answer.files!.map((f) => f.file_name));
      for (const [index, entry] of copies.entries()) {
        const kept = stored.get(`${fieldId}/${index}`)!;
        expect(kept.file).toMatchObject({ submissionKey: withFiles.key, fieldId, index, fileName: entry.file_name });
        // What the service hands out for the entry, fetched apart: the same bytes the store got.
        const direct = Buffer.from(await (await fetch(entry.file_url)).arrayBuffer());
        expect(kept.bytes.equals(direct)).toBe(true);
        expect(kept.bytes.length).toBeGreaterThan(0);
        expect(entry.copy).toEqual({
          size: kept.bytes.length,
          sha256: createHash('sha256').update(kept.bytes).digest('hex'),
        });
      }
    }
    // Answers without files are handed on as they were.
    for (const [fieldId, answer] of Object.entries(withFiles.answers))
      if (!answer.files?.length) expect(copied.answers[fieldId]).toEqual(answer);
  });

  it('refuses a store that resolves before the end of a file, rather than keep a short copy', async () => {
    const error = await copySubmissionFiles(withFiles, { client, store: async () => {} }).catch((e: unknown) => e);
    expect(isInboxError(error) && error.kind).toBe('file_not_copied');
    expect((error as Error).message).toMatch(/before the end\. Read `body` to its end before resolving/);
  });

  it('says which file failed when the store throws, with the store error as its cause', async () => {
    const failure = new Error('bucket unavailable');
    const error = await copySubmissionFiles(withFiles, {
      client,
      store: async () => {
        throw failure;
      },
    }).catch((e: unknown) => e);
    expect(isInboxError(error) && error.kind).toBe('file_not_copied');
    expect((error as Error).cause).toBe(failure);
    const [fieldId] = fileAnswers(withFiles)[0]!;
    expect((error as { context: unknown }).context).toEqual({ submissionKey: withFiles.key, fieldId, index: 0 });
  });

  it('fails a link that no longer works with the download error as cause, and never prints its signature', async () => {
    const [fieldId, answer] = fileAnswers(withFiles)[0]!;
    const entry = answer.files![0]!;
    const url = new URL(entry.file_url);
    url.searchParams.set('expires', '1');
    const expired: NormalisedSubmission = {
      ...withFiles,
      answers: { [fieldId]: { ...answer, files: [{ ...entry, file_url: url.href }] } },
    };
    const error = await copySubmissionFiles(expired, {
      client,
      store: async ({ body }) => void (await bytesOf(body)),
    }).catch((e: unknown) => e);
    expect(isInboxError(error) && error.kind).toBe('file_not_copied');
    expect(isFormsApiError((error as Error).cause) && (error as { cause: { status: number } }).cause.status).toBe(403);
    expect(
      JSON.stringify({ message: (error as Error).message, context: (error as { context: unknown }).context }),
    ).not.toContain(url.searchParams.get('signature')!);
  });
});
