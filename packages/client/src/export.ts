// Export a form's submissions as NDJSON or CSV through the list: each submission normalised with its
// form's fields, each once, resumable from a cursor, paced by the client's pacer. Not the service's
// own CSV export (`submissions.export`), which a token cannot follow past 1,000 submissions.
import type { Submission } from '@forms-api/types';
import { id } from './arguments.js';
import { csvRow } from './csv.js';
import { FormsApiError, invalidOption } from './errors.js';
import { keysOf, refuseUnknownOptions } from '@forms-api/internal/option-names';
import { walkItems } from './pagination.js';
import {
  submissionWalk,
  type FormsApi,
  type PageOptions,
  type SubmissionListQuery,
  type SubmissionsApi,
} from './resources.js';
import {
  formFields,
  normaliseListedSubmission,
  unknownFieldIds,
  type FormFields,
  type NormalisedSubmission,
} from './submission.js';
import { cursorOf, isPast, parseSince, WatermarkBuilder } from './watermark.js';

/** What an export needs of a client (a `createFormsClient` client; give it `pacing` to keep to the limit). */
export interface ExportClient {
  readonly forms: Pick<FormsApi, 'get'>;
  readonly submissions: Pick<SubmissionsApi, 'list'>;
}

/** The export's own options beside a call's (`signal`, `timeoutMs`, `retry`, `maxResponseBytes`: each request's) and `maxPages`. */
export interface ExportSubmissionsOptions extends PageOptions {
  /** `ndjson`: one normalised submission per line. `csv`: one column per field of the form. */
  format: 'ndjson' | 'csv';
  /**
   * Where the text goes: a `WritableStream` of strings (closed when the export ends, aborted when
   * it fails), or a function called with whole lines, a page's worth at a time, and awaited.
   */
  to: WritableStream<string> | ((text: string) => unknown);
  /**
   * Only submissions after this: the `cursor` a previous export returned (resumes exactly: nothing
   * it wrote again, nothing it did not write left out), or a time in UTC
   * (`2026-11-28 10:00:00`): submissions of that second and later.
   */
  since?: string;
  /** `completed`, `partial` or `all` (default). */
  status?: SubmissionListQuery['status'];
  /** Submissions per request, 1..100 (default 100: the fewest requests). */
  perPage?: number;
  /** Called after each page written. */
  onProgress?: (progress: ExportProgress) => void;
}

export interface ExportProgress {
  /** Submissions written so far. */
  readonly written: number;
  /** List pages read, a page read again after deletions included. */
  readonly pages: number;
  /** The list's size as the last page said (all of it, not only what is past `since`). */
  readonly total: number | undefined;
  /** Reads of the form: one, and one more each time a submission answers a field it did not know. */
  readonly formReads: number;
}

export interface ExportSummary extends ExportProgress {
  /**
   * Pass it as `since` to export only what came after: the newest second written and the ids
   * written in it. Null when nothing was written and no `since` was given.
   */
  readonly cursor: string | null;
}

const OPTION_KEYS = keysOf<ExportSubmissionsOptions>({
  format: true,
  to: true,
  since: true,
  status: true,
  perPage: true,
  onProgress: true,
  signal: true,
  timeoutMs: true,
  retry: true,
  maxResponseBytes: true,
  maxPages: true,
});

/** The fixed columns of a CSV export, before one column per field. */
const CSV_COLUMNS = ['id', 'public_id', 'status', 'created_at', 'completion_time'];

/**
 * Writes every submission of the form (newest first) past `since`, each once, and returns the
 * cursor to resume from. Two pages of memory at most, whatever the form's size: the walk's page
 * and the text of the page being written.
 */
export async function exportSubmissions(
  client: ExportClient,
  formId: number,
  options: ExportSubmissionsOptions,
): Promise<ExportSummary> {
  // What is left are a call's options, for each request of the export.
  const { format, to, status = 'all', perPage, onProgress, maxPages, since: given, ...call } = checked(options);
  const form = id(formId, 'formId');
  const since = given === undefined ? undefined : parseSince(given);
  const sink = sinkOf(to);
  const progress = { written: 0, pages: 0, total: undefined as number | undefined, formReads: 0 };
  const watermark = new WatermarkBuilder(since);
  try {
    const readForm = async (): Promise<FormFields> => {
      progress.formReads++;
      return formFields(await client.forms.get(form, call));
    };
    let fields = await readForm();
    // CSV columns are the fields read first; answers of fields met later go to `other_answers`.
    const columns = [...fields.keys()];
    // Field ids the form did not have when read again (answers of deleted fields): read once for them.
    const absent = new Set<string>();
    const line = (submission: NormalisedSubmission) =>
      format === 'ndjson' ? `${JSON.stringify(submission)}\n` : csvRow(csvCells(submission, columns));
    if (format === 'csv')
      await sink.write(
        csvRow([...CSV_COLUMNS, ...columns.map((id) => `${fields.get(id)!.name} (${id})`), 'other_answers']),
      );

    const walk = submissionWalk(
      async (query, callOptions) => {
        const page = await client.submissions.list(form, query, callOptions);
        progress.pages++;
        progress.total = page.meta?.total ?? progress.total;
        return page;
      },
      form,
      { status, ...(perPage !== undefined && { perPage }) },
      { ...call, ...(maxPages !== undefined && { maxPages }) },
    );
    let text = '';
    let lines = 0;
    const flush = async () => {
      if (lines === 0) return;
      await sink.write(text);
      [text, lines] = ['', 0];
      onProgress?.({ ...progress });
    };
    // Newest first: the page that reaches before the watermark is the last one needed.
    for await (const listed of walkItems(walk, (s) => since !== undefined && createdAtOf(s) < since.time)) {
      const createdAt = createdAtOf(listed);
      if (!isPast(since, createdAt, listed.id)) continue;
      const unknown = unknownFieldIds(listed, fields).filter((id) => !absent.has(id));
      if (unknown.length > 0) {
        fields = await readForm();
        for (const id of unknown) if (!fields.has(id)) absent.add(id);
      }
      text += line(normaliseListedSubmission(listed, fields));
      watermark.add(createdAt, listed.id);
      progress.written++;
      if (++lines >= walk.perPage) await flush();
    }
    await flush();
    await sink.close();
    const reached = watermark.get();
    return { ...progress, cursor: reached ? cursorOf(reached) : null };
  } catch (error) {
    await sink.abort(error);
    throw error;
  }
}

function createdAtOf(submission: Submission): string {
  const createdAt = submission?.data?.created_at;
  if (typeof createdAt !== 'string')
    throw invalidOption(
      'submission.data.created_at',
      "is missing: the list's submissions carry it; check the service.",
    );
  return createdAt;
}

/** One CSV record: the fixed columns, one cell per column field, then the other answers as JSON. */
function csvCells(submission: NormalisedSubmission, columns: readonly string[]): (string | number)[] {
  const other: Record<string, { name: string | null; value: unknown }> = {};
  for (const [fieldId, answer] of Object.entries(submission.answers))
    if (!columns.includes(fieldId)) other[fieldId] = { name: answer.name, value: answer.files ?? answer.value };
  return [
    submission.id,
    submission.publicId ?? '',
    submission.status,
    submission.createdAt ? submission.createdAt.toISOString().replace('.000', '') : '',
    submission.completionTime ?? '',
    ...columns.map((fieldId) => cellOf(submission.answers[fieldId])),
    Object.keys(other).length === 0 ? '' : JSON.stringify(other),
  ];
}

/** An answer as one cell: text as is, numbers as numbers, files by their names, anything else as JSON. */
function cellOf(answer: NormalisedSubmission['answers'][string] | undefined): string | number {
  if (answer === undefined) return '';
  // File links are signed and expire in minutes: the names are what stays true (NDJSON has the links).
  if (answer.files) return answer.files.map((file) => file.file_name).join('\n');
  const { value } = answer;
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return JSON.stringify(value);
}

interface Sink {
  write(text: string): Promise<void>;
  close(): Promise<void>;
  abort(reason: unknown): Promise<void>;
}

function sinkOf(to: ExportSubmissionsOptions['to']): Sink {
  if (typeof to === 'function')
    return { write: async (text) => void (await to(text)), close: async () => {}, abort: async () => {} };
  const writer = to.getWriter();
  return {
    write: async (text) => {
      await writer.ready;
      await writer.write(text);
    },
    close: () => writer.close(),
    abort: (reason) => writer.abort(reason).catch(() => {}),
  };
}

function checked(options: ExportSubmissionsOptions): ExportSubmissionsOptions {
  if (options === null || typeof options !== 'object')
    throw invalidOption('options', "needs `{ format: 'ndjson' | 'csv', to }`.");
  refuseUnknownOptions(FormsApiError, options, OPTION_KEYS, 'exportSubmissions');
  if (options.format !== 'ndjson' && options.format !== 'csv')
    throw invalidOption('format', "must be 'ndjson' or 'csv'.");
  const { to } = options;
  if (typeof to !== 'function' && typeof (to as Partial<WritableStream> | null)?.getWriter !== 'function')
    throw invalidOption('to', 'must be a WritableStream of strings or a function (text) => void.');
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function')
    throw invalidOption('onProgress', 'must be a function (progress) => void.');
  return options;
}
