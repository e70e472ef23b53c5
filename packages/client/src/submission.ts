// One shape for a submission whatever brought it. The service describes a submission two ways: the
// list keys each answer by field id alone and gives its stored value, while the webhook gives each
// answer with the field's name and type and formats the value for display (FormSubmissionResource.php,
// AbstractIntegrationHandler.php:147-166 at aee613da). A receiver that stores both ends up with two
// shapes in one column; this is the one both become.
import type { FileEntry, FormField, Submission, SubmissionCreatedPayload } from '@forms-api/types';
import { NOT_ANSWERS } from '@forms-api/internal/answers';
import { invalidOption } from './errors.js';
import { serviceTime } from './watermark.js';

/** A submission's integer id (the open API's `id`, the webhook's `submission_id`). */
export type SubmissionId = number & { readonly __brand: 'SubmissionId' };
/** A submission's public UUID (the list's `submission_id`): another id, never the integer one. */
export type SubmissionPublicId = string & { readonly __brand: 'SubmissionPublicId' };

/** Where a normalised submission came from. */
export type SubmissionOrigin = 'webhook' | 'reconcile' | 'list';

export interface NormalisedAnswer {
  /** The field's label, or null for a field the form no longer has. */
  readonly name: string | null;
  /** The field's type (`text`, `files`, …), or null for a field the form no longer has. */
  readonly type: string | null;
  /** The answer as the source gave it (see `NormalisedSubmission.values`). */
  readonly value: unknown;
  /** The stored files of a `files` or `signature` answer (signed links that expire); null for other fields. */
  readonly files: readonly FileEntry[] | null;
}

export interface NormalisedSubmission {
  /** `<formId>:<id>`: the same for the webhook and the listed submission, so the key to upsert on. */
  readonly key: string;
  readonly formId: number;
  readonly id: SubmissionId;
  /** The public UUID: listed submissions carry it, a webhook only inside its `edit_link`. */
  readonly publicId: SubmissionPublicId | null;
  /** A webhook is only sent for a completed submission (partial saves never fire one). */
  readonly status: 'completed' | 'partial';
  /** When it was stored (UTC, to the second); a webhook carries no time, so null. */
  readonly createdAt: Date | null;
  /** Seconds the respondent took, when known. */
  readonly completionTime: number | null;
  /** Answers keyed by field id, in the order the source gave them. */
  readonly answers: Readonly<Record<string, NormalisedAnswer>>;
  /**
   * `stored` (listed): the values as stored (a checkbox `true`, a date `2026-11-28`). `formatted`
   * (webhook): as the service prints them (`"Yes"`, `28/11/2026`, matrix rows as text), so two
   * sources agree on keys, names and files but not on every value.
   */
  readonly values: 'stored' | 'formatted';
  /** The `utm_*` and click ids captured with it, if any. */
  readonly attribution: Readonly<Record<string, string>> | null;
  readonly origin: SubmissionOrigin;
}

/** A form's fields by id: what a listed submission's answers are joined with. */
export type FormFields = ReadonlyMap<string, { readonly name: string; readonly type: string }>;

/** The answerable fields of a form (its layout blocks, `nf-…`, take no answer). */
export function formFields(form: { readonly properties?: readonly FormField[] | null }): FormFields {
  const fields = new Map<string, { name: string; type: string }>();
  for (const field of form?.properties ?? []) {
    if (typeof field?.id !== 'string' || typeof field.type !== 'string' || field.type.startsWith('nf-')) continue;
    fields.set(field.id, { name: String(field.name ?? ''), type: field.type });
  }
  return fields;
}

/** Answer keys of a listed submission that `fields` does not know: read the form again when there are any. */
export function unknownFieldIds(submission: Pick<Submission, 'data'>, fields: FormFields): string[] {
  return Object.keys(submission.data ?? {}).filter((key) => !NOT_ANSWERS.has(key) && !fields.has(key));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A listed submission (`submissions.list`/`iterate`) with its form's field names and types joined in. */
export function normaliseListedSubmission(
  submission: Submission,
  fields: FormFields,
  origin: SubmissionOrigin = 'list',
): NormalisedSubmission {
  if (
    submission === null ||
    typeof submission !== 'object' ||
    submission.data === null ||
    typeof submission.data !== 'object'
  )
    throw invalidOption('submission', 'must be a submission as the list gives it: `{ id, form_id, data, … }`.');
  const { data } = submission;
  const formId = positiveId(submission.form_id, 'submission.form_id');
  const id = positiveId(submission.id, 'submission.id') as SubmissionId;
  if (data.status !== 'completed' && data.status !== 'partial')
    throw invalidOption('submission.data.status', 'must be `completed` or `partial`.');
  const answers: Record<string, NormalisedAnswer> = Object.create(null);
  for (const [fieldId, value] of Object.entries(data)) {
    if (NOT_ANSWERS.has(fieldId)) continue;
    const field = fields.get(fieldId);
    answers[fieldId] = answer(field?.name ?? null, field?.type ?? null, value);
  }
  return {
    key: `${formId}:${id}`,
    formId,
    id,
    publicId: publicId(submission.submission_id ?? data.submission_id),
    status: data.status,
    createdAt: createdAt(data.created_at),
    completionTime: typeof submission.completion_time === 'number' ? submission.completion_time : null,
    answers,
    values: 'stored',
    attribution: attribution(submission.meta),
    origin,
  };
}

/**
 * A verified `submission.created` payload. It must carry `data` (the answers by field id), as the
 * service's always does; a payload keyed by field names alone cannot be told apart field by field.
 */
export function normaliseWebhookSubmission(payload: SubmissionCreatedPayload): NormalisedSubmission {
  if (payload === null || typeof payload !== 'object')
    throw invalidOption('payload', 'must be a verified submission.created payload.');
  const formId = positiveId(payload.form_id, 'payload.form_id');
  const id = positiveId(payload.submission_id, 'payload.submission_id') as SubmissionId;
  const { data } = payload;
  if (data === undefined || data === null || typeof data !== 'object')
    throw invalidOption(
      'payload.data',
      'is missing: this payload keys its answers by field name only (`submission`), so they cannot be keyed by field id. The service always sends `data`; check what produced this payload.',
    );
  const answers: Record<string, NormalisedAnswer> = Object.create(null);
  // PHP encodes an empty answer set as `[]`.
  if (!Array.isArray(data))
    for (const [fieldId, entry] of Object.entries(data)) {
      if (entry === null || typeof entry !== 'object')
        throw invalidOption(`payload.data.${fieldId}`, 'must be `{ value, name, type }`.');
      answers[fieldId] = answer(
        typeof entry.name === 'string' ? entry.name : null,
        typeof entry.type === 'string' ? entry.type : null,
        entry.value,
      );
    }
  const editLink = typeof payload.edit_link === 'string' ? parseUrl(payload.edit_link) : null;
  return {
    key: `${formId}:${id}`,
    formId,
    id,
    publicId: publicId(editLink?.searchParams.get('submission_id')),
    status: 'completed',
    createdAt: null,
    completionTime: null,
    answers,
    values: 'formatted',
    attribution: attribution(payload.meta),
    origin: 'webhook',
  };
}

function answer(name: string | null, type: string | null, value: unknown): NormalisedAnswer {
  return { name, type, value, files: type === 'files' || type === 'signature' ? fileEntries(value) : null };
}

/** File entries as a list (the service may list them as an object keyed by position; ledger: submission-file-answer-object). */
function fileEntries(value: unknown): FileEntry[] {
  if (value === null || value === undefined || value === '') return [];
  const entries = Array.isArray(value) ? value : typeof value === 'object' ? Object.values(value) : [];
  return entries.filter(
    (entry): entry is FileEntry =>
      entry !== null &&
      typeof entry === 'object' &&
      typeof entry.file_url === 'string' &&
      typeof entry.file_name === 'string',
  );
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

function positiveId(value: unknown, option: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)
    throw invalidOption(option, 'must be a positive integer id.');
  return value;
}

function publicId(value: unknown): SubmissionPublicId | null {
  return typeof value === 'string' && UUID.test(value) ? (value as SubmissionPublicId) : null;
}

function createdAt(value: unknown): Date {
  const time = serviceTime(value);
  if (Number.isNaN(time))
    throw invalidOption('submission.data.created_at', "must be the service's `YYYY-MM-DD HH:MM:SS` (UTC).");
  return new Date(time);
}

function attribution(meta: { attribution?: Record<string, string> } | undefined | null): Record<string, string> | null {
  const found = meta?.attribution;
  return found && typeof found === 'object' && Object.keys(found).length > 0 ? { ...found } : null;
}
