// exportFormSubmissions, as the spec describes it (observed; the contract is silent, so both
// behaviours serve it alike): the form (404), then the body (422), then the permission (403); at
// most EXPORT_CSV_MAX submissions come back as the CSV itself, more as a background job's id.
import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { ATTRIBUTION_PARAMETERS } from '../attribution.js';
import { authorise, caller, formOr404, jsonBody, type SandboxContext } from '../context.js';
import { csvText } from '../csv.js';
import { attachmentDisposition, storedFileNames } from '../files.js';
import { FieldErrors, json } from '../http.js';
import type { Form, Submission } from '../model.js';
import { serve } from '../operations.js';
import { sqlTime } from '../presenters.js';

/** The spec: above this many submissions the export is a background job, not the CSV. */
export const EXPORT_CSV_MAX = 1000;
/** The spec: file answers in the CSV are links as long-lived as the workspace's external links (24 hours by default). */
const EXPORT_FILE_URL_LIFETIME_S = 24 * 60 * 60;
const ATTRIBUTION_PREFIX = 'meta.attribution.';
/** Laravel's `boolean` rule, which the spec says the column values pass: only `true` includes a column. */
const BOOLEAN_LIKE: readonly unknown[] = [true, false, 0, 1, '0', '1'];
const FILE_TYPES = new Set(['files', 'signature']);

interface ExportRequest {
  columns: string[];
  /** The ids sent, duplicates kept (their number decides CSV or job); undefined for every submission. */
  submissionIds?: number[];
}

/** The body as the spec's SubmissionExportRequest, or every problem in one 422. */
function exportRequest(form: Form, body: Record<string, unknown>, owns: (id: number) => boolean): ExportRequest {
  const errors = new FieldErrors();
  const { columns, submissionIds } = body;
  const known = new Set([
    ...form.properties.map((f) => f.id),
    'created_at',
    'status',
    ...ATTRIBUTION_PARAMETERS.map((p) => `${ATTRIBUTION_PREFIX}${p}`),
  ]);
  if (columns === null || typeof columns !== 'object' || Array.isArray(columns) || Object.keys(columns).length === 0) {
    errors.add('columns', 'The columns field is required: an object of the columns to export, each `true`.');
  } else {
    const unknown = Object.keys(columns).filter((k) => !known.has(k));
    if (unknown.length > 0) errors.add('columns', `The columns contain invalid values: ${unknown.join(', ')}`);
    for (const [key, value] of Object.entries(columns))
      if (!BOOLEAN_LIKE.includes(value))
        errors.add(`columns.${key}`, `The columns.${key} field must be true or false.`);
  }
  let ids: number[] | undefined;
  if (submissionIds !== undefined && submissionIds !== null) {
    if (!Array.isArray(submissionIds)) errors.add('submissionIds', 'The submissionIds field must be an array.');
    else {
      submissionIds.forEach((id, i) => {
        if (!Number.isInteger(id)) errors.add(`submissionIds.${i}`, `The submissionIds.${i} field must be an integer.`);
        else if (!owns(id as number))
          errors.add(`submissionIds.${i}`, `The selected submissionIds.${i} is invalid: no submission of this form.`);
      });
      if (submissionIds.length > 0) ids = submissionIds as number[];
    }
  }
  if (errors.size > 0) throw errors.toHttpError();
  const included = Object.entries(columns as Record<string, unknown>)
    .filter(([, value]) => value === true)
    .map(([key]) => key);
  return { columns: included, ...(ids ? { submissionIds: ids } : {}) };
}

/** A column's header label: the field's name, or the spec's words for the others. */
function label(form: Form, column: string): string {
  if (column === 'created_at') return 'Created at';
  if (column === 'status') return 'Status';
  if (column.startsWith(ATTRIBUTION_PREFIX)) return column.slice(ATTRIBUTION_PREFIX.length);
  return form.properties.find((f) => f.id === column)?.name ?? column;
}

/** An answer as one CSV cell: text as it is, lists joined, file answers as signed links, objects as JSON. */
function cell(ctx: SandboxContext, form: Form, s: Submission, column: string): string {
  if (column === 'created_at') return sqlTime(s.createdAt).slice(0, 16);
  if (column === 'status') return s.status === 'partial' ? 'In Progress' : 'Completed';
  if (column.startsWith(ATTRIBUTION_PREFIX))
    return s.meta?.attribution?.[column.slice(ATTRIBUTION_PREFIX.length)] ?? '';
  const value = s.answers[column];
  if (value === undefined || value === null) return '';
  const type = form.properties.find((f) => f.id === column)?.type ?? '';
  if (FILE_TYPES.has(type))
    return storedFileNames(value)
      .map((name) => ctx.files.url(ctx.baseUrl, form.id, name, EXPORT_FILE_URL_LIFETIME_S))
      .join(', ');
  if (Array.isArray(value)) return value.map(String).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function exportRoutes(app: Hono, ctx: SandboxContext): void {
  serve(app, 'exportFormSubmissions', async (c) => {
    const who = caller(ctx, c);
    const form = formOr404(ctx, c.req.param('id')!);
    const request = exportRequest(form, await jsonBody(c), (id) => ctx.store.submission(form.id, id) !== undefined);
    authorise(ctx, who, form.workspaceId, 'exportFormSubmissions');
    const count = request.submissionIds?.length ?? ctx.store.submissionsOf(form.id).length;
    if (count > EXPORT_CSV_MAX)
      return json(200, {
        type: 'success',
        message: `Export started: more than ${EXPORT_CSV_MAX} submissions are exported by a background job, which a personal access token cannot follow; export them in batches of at most ${EXPORT_CSV_MAX} with submissionIds.`,
        job_id: randomUUID(),
        is_async: true,
      });
    const chosen = request.submissionIds ? new Set(request.submissionIds) : undefined;
    // The store keeps each form's submissions newest first.
    const rows = ctx.store.submissionsOf(form.id).filter((s) => !chosen || chosen.has(s.id));
    const csv = csvText([
      request.columns.map((column) => label(form, column)),
      ...rows.map((s) => request.columns.map((column) => cell(ctx, form, s, column))),
    ]);
    return new Response(csv, {
      status: 200,
      headers: {
        'content-type': 'text/csv; charset=UTF-8',
        'content-disposition': attachmentDisposition(`${form.slug}-submission-data.csv`),
      },
    });
  });
}
