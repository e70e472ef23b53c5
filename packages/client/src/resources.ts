// The resource helpers: named, checked arguments over the generated operation methods (one
// request path), returning the response data typed by the spec and throwing FormsApiError, plus
// page walkers for the two paginated lists, the safe update and the signed download.
import type {
  AnswerAccepted,
  AnswerRequest,
  AnswerValue,
  Form,
  FormInput,
  FormSaved,
  FormSummary,
  FormSummaryPage,
  IntegrationSaved,
  ListFormsQuery,
  ListSubmissionsQuery,
  Submission,
  SubmissionExportRequest,
  SubmissionExportStarted,
  SubmissionPage,
  SuccessMessage,
  UpdatedSubmission,
  WebhookEvent,
  WebhookIntegration,
  WebhookIntegrationInput,
} from '@forms-api/types';
import type { Caller } from './call.js';
import { id, known, namedIds, objectArgument, pathSegment, submissionUpdate } from './arguments.js';
import { FormsApiError, invalidOption } from './errors.js';
import { describeValue, integerOption } from '@forms-api/internal/option-names';
import type { OperationMethods } from './operation-methods.js';
import type { CallOptions } from './options.js';
import { downloadInit, type SubmissionFileRef } from './download.js';
import { DEFAULT_MAX_PAGES, walkItems, walkPages, type Walk } from './pagination.js';
import { updateKeeping, type SubmissionChanges, type UpdateKeepingOptions } from './update-keeping.js';

export interface FormListQuery {
  /** The page to fetch (for `pages`/`iterate`: the first page; default 1). */
  page?: number;
  /** Forms per page, 1..100 (service default 10; `pages`/`iterate` default 100). */
  perPage?: number;
}

export interface SubmissionListQuery {
  page?: number;
  /** Submissions per page, 1..100 (default 100). */
  perPage?: number;
  /** Full-text search over the answers. */
  search?: string;
  /** `completed`, `partial` or `all`; the service's default is `all`. */
  status?: NonNullable<ListSubmissionsQuery['status']>;
}

export interface PageOptions extends CallOptions {
  /** Stop with a `pagination` error after this many pages (default 10 000). */
  maxPages?: number;
}

export interface UpdateSubmissionOptions extends CallOptions {
  /** Seconds the respondent took, stored as `completion_time`. */
  completionTime?: number;
}

/** New answers keyed by field id. */
export type SubmissionAnswers = { [fieldId: string]: AnswerValue };

/** What `submissions.update` replaces: the submission, named with its form, and its new answers. */
export interface SubmissionUpdate {
  /** The form's id. */
  form: number;
  /** The submission's id. */
  submission: number;
  /** Every answer the submission keeps, keyed by field id: the ones not sent are deleted. */
  answers: SubmissionAnswers;
}

/** The keys of a form to replace (`properties` replaces the whole list); every other key is kept. */
export type FormChanges = Partial<FormInput>;

export interface FormsApi {
  list(workspaceId: number, query?: FormListQuery, options?: CallOptions): Promise<FormSummaryPage>;
  get(idOrSlug: number | string, options?: CallOptions): Promise<Form>;
  /**
   * Changes some keys of a form and keeps every other: reads the form, puts `changes` over it and
   * sends it back whole, as the service's replacing update needs (every required key, and
   * `properties`, whose fields left out are removed). `changes` may be a function of the form as
   * read, to edit its `properties`. Two requests; not atomic: a change made by anyone else between
   * the read and the write is overwritten.
   */
  updateKeeping(
    formId: number,
    changes: FormChanges | ((form: Form) => FormChanges | Promise<FormChanges>),
    options?: CallOptions,
  ): Promise<FormSaved>;
  pages(
    workspaceId: number,
    query?: FormListQuery,
    options?: PageOptions,
  ): AsyncGenerator<FormSummaryPage, void, undefined>;
  iterate(
    workspaceId: number,
    query?: FormListQuery,
    options?: PageOptions,
  ): AsyncGenerator<FormSummary, void, undefined>;
}

export interface SubmissionsApi {
  list(formId: number, query?: SubmissionListQuery, options?: CallOptions): Promise<SubmissionPage>;
  pages(
    formId: number,
    query?: SubmissionListQuery,
    options?: PageOptions,
  ): AsyncGenerator<SubmissionPage, void, undefined>;
  iterate(
    formId: number,
    query?: SubmissionListQuery,
    options?: PageOptions,
  ): AsyncGenerator<Submission, void, undefined>;
  /**
   * Replaces the submission's answers with `answers`, as the service does: every answer not sent
   * is deleted and `completion_time` is reset unless given (ledger:
   * update-submission-replaces-all-answers), and a required field not sent is a 422. To change
   * some answers and keep the rest, use `updateKeeping`.
   */
  update(update: SubmissionUpdate, options?: UpdateSubmissionOptions): Promise<UpdatedSubmission>;
  /**
   * Changes some answers and keeps every other one: reads the submission and its form, merges
   * `changes` over the current answers (file and signature answers sent back as the stored names
   * the service takes), keeps `completion_time` unless given, and sends the complete set. Three
   * requests or more (the form, the list pages up to the submission, the update); two when given
   * the submission you hold as `current`, and `search` narrows the list's walk. Not atomic: an
   * update made by anyone else between the read and the write is overwritten; serialise updates
   * of one submission on your side.
   */
  updateKeeping(update: SubmissionChanges, options?: UpdateKeepingOptions): Promise<UpdatedSubmission>;
  /**
   * Downloads a file of a `files` or `signature` answer: its signed `file_url`, or the URL's
   * parts. Public (no token is sent, to the service or to the storage it may redirect to). Returns
   * the 2xx Response unread: stream `response.body`, with the file's own `content-type`. The
   * timeout covers the attempt until the response arrives; stop a download with your `signal` or
   * `response.body.cancel()`. The body is capped only by a `maxResponseBytes` given here.
   */
  downloadFile(file: string | URL | SubmissionFileRef, options?: CallOptions): Promise<Response>;
  /**
   * Exports submissions of the form (`exportFormSubmissions`), its two answers told apart: the CSV
   * itself for at most 1,000 submissions, or the background job the service starts for more. A
   * token cannot follow that job (its status route answers tokens 404 and the file goes nowhere
   * else): export at most 1,000 `submissionIds` at a time to get every CSV. Paced in the export's
   * own bucket (10 a minute) when pacing is on.
   */
  export(formId: number, request: SubmissionExportRequest, options?: CallOptions): Promise<SubmissionExport>;
}

/** What an export answered: the CSV (its text and the file name the service gives it), or the job. */
export type SubmissionExport =
  | { readonly kind: 'csv'; readonly csv: string; readonly fileName: string | undefined }
  | {
      readonly kind: 'job';
      /** The job's answer; its `job_id` cannot be followed with a personal access token. */
      readonly job: SubmissionExportStarted;
    };

/** An integration, named with its form: the ids by name, so they cannot be swapped. */
export interface IntegrationRef {
  /** The form's id. */
  form: number;
  /** The integration's id. */
  integration: number;
}

/** What `integrations.update` replaces: the integration, named with its form, and its full new state. */
export interface IntegrationUpdate extends IntegrationRef {
  /** The integration's full new state: `data` is replaced wholesale (an omitted secret is removed). */
  input: WebhookIntegrationInput;
}

export interface IntegrationsApi {
  list(formId: number, options?: CallOptions): Promise<WebhookIntegration[]>;
  create(formId: number, input: WebhookIntegrationInput, options?: CallOptions): Promise<IntegrationSaved>;
  update(update: IntegrationUpdate, options?: CallOptions): Promise<IntegrationSaved>;
  delete(integration: IntegrationRef, options?: CallOptions): Promise<SuccessMessage>;
  events(integration: IntegrationRef, options?: CallOptions): Promise<WebhookEvent[]>;
}

export interface AnswersApi {
  /** Posts answers to the public endpoint (no token). Not idempotent: never retried unless `retry.unsafe`. */
  submit(formIdOrSlug: number | string, answers: AnswerRequest, options?: CallOptions): Promise<AnswerAccepted>;
}

const ITERATE_PER_PAGE = 100;

export function formsApi(ops: OperationMethods): FormsApi {
  const list = async (workspaceId: number, query: FormListQuery = {}, options?: CallOptions) =>
    ops.listWorkspaceForms({ path: { workspaceId: id(workspaceId, 'workspaceId') }, query: formQuery(query) }, options);
  const walk = (workspaceId: number, query: FormListQuery = {}, options: PageOptions = {}): Walk<FormSummaryPage> => {
    const { maxPages, call: callOptions } = pageOptions(options);
    const perPage = query.perPage ?? ITERATE_PER_PAGE;
    formQuery({ ...query, perPage });
    return {
      label: `forms of workspace ${workspaceId}`,
      fetch: (page) => list(workspaceId, { ...query, perPage, page }, callOptions),
      // The contract's meta has no last_page: the last page is the one that reaches `total`.
      isLast: (p) =>
        !p.meta || p.meta.current_page * p.meta.per_page >= p.meta.total || p.data.length < p.meta.per_page,
      startPage: query.page ?? 1,
      maxPages,
      perPage,
    };
  };
  return {
    list,
    get: async (idOrSlug, options) => ops.getForm({ path: { form: ref(idOrSlug, 'idOrSlug') } }, options),
    updateKeeping: async (formId, changes, options) => {
      const form = id(formId, 'formId');
      const expected = 'the keys of the form to change, or a function of the form that returns them';
      if (typeof changes !== 'function') objectArgument(changes, 'changes', expected);
      const current = await ops.getForm({ path: { form } }, options);
      const change =
        typeof changes === 'function' ? objectArgument(await changes(current), 'changes', expected) : changes;
      // The service's form carries every key of the input (and more, which its update ignores):
      // sent back whole, nothing the change does not name is lost.
      return ops.updateForm({ path: { form }, body: { ...current, ...change } as FormInput }, options);
    },
    pages: (workspaceId, query, options) => walkPages(walk(workspaceId, query, options)),
    iterate: (workspaceId, query, options) => walkItems(walk(workspaceId, query, options)),
  };
}

export function submissionsApi(
  call: Caller,
  ops: OperationMethods,
  service: { baseUrl: string; basePath: string },
): SubmissionsApi {
  const list = async (formId: number, query: SubmissionListQuery = {}, options?: CallOptions) =>
    ops.listFormSubmissions({ path: { id: id(formId, 'formId') }, query: submissionQuery(query) }, options);
  const walk = (formId: number, query: SubmissionListQuery = {}, options: PageOptions = {}) =>
    submissionWalk((q, callOptions) => list(formId, q, callOptions), formId, query, options);
  return {
    list,
    pages: (formId, query, options) => walkPages(walk(formId, query, options)),
    iterate: (formId, query, options) => walkItems(walk(formId, query, options)),
    updateKeeping: updateKeeping(call),
    update: async (update, options = {}) => {
      const { form, submission, answers } = submissionUpdate(update, 'submissions.update', 'answers');
      const { completionTime, ...callOptions } = options;
      if (completionTime !== undefined)
        integerOption(FormsApiError, completionTime, 'completionTime', { min: 0, unit: 'seconds' });
      const body = completionTime === undefined ? answers : { ...answers, completion_time: completionTime };
      return ops.updateFormSubmission({ path: { id: form, submission_id: submission }, body }, callOptions);
    },
    export: async (formId, request, options) => {
      const response = await ops.exportFormSubmissions(
        { path: { id: id(formId, 'formId') }, body: objectArgument(request, 'request') },
        options,
      );
      if (/json/.test(response.headers.get('content-type') ?? ''))
        return { kind: 'job', job: (await response.json()) as SubmissionExportStarted };
      const disposition = response.headers.get('content-disposition') ?? '';
      return { kind: 'csv', csv: await response.text(), fileName: /filename="?([^";]+)"?/.exec(disposition)?.[1] };
    },
    // Through the Caller itself: a signed URL's query string is sent exactly as signed.
    downloadFile: async (file, options) =>
      call.stream('downloadSubmissionFile', downloadInit(file, service.baseUrl, service.basePath), options),
  };
}

export function integrationsApi(ops: OperationMethods): IntegrationsApi {
  const ids = ['form', 'integration'] as const;
  /** The path of one integration, from ids `namedIds` checked. */
  const path = ({ form, integration }: IntegrationRef) => ({ form, integrationid: integration });
  const one = (ref: unknown, method: string) => path(namedIds(ref, { method, argument: 'integration', ids }));
  return {
    list: async (formId, options) => ops.listFormIntegrations({ path: { form: id(formId, 'formId') } }, options),
    create: async (formId, input, options) =>
      ops.createFormIntegration(
        { path: { form: id(formId, 'formId') }, body: objectArgument(input, 'input') },
        options,
      ),
    update: async (update, options) => {
      const named = namedIds(update, { method: 'integrations.update', argument: 'update', ids, body: 'input' });
      const input = named.input as WebhookIntegrationInput;
      return ops.updateFormIntegration({ path: path(named), body: input }, options);
    },
    delete: async (ref, options) => ops.deleteFormIntegration({ path: one(ref, 'integrations.delete') }, options),
    events: async (ref, options) => ops.listIntegrationEvents({ path: one(ref, 'integrations.events') }, options),
  };
}

export function answersApi(ops: OperationMethods): AnswersApi {
  return {
    submit: async (formIdOrSlug, answers, options) =>
      ops.createFormAnswer(
        { path: { form: ref(formIdOrSlug, 'formIdOrSlug') }, body: objectArgument(answers, 'answers') },
        options,
      ),
  };
}

// Argument checks (ids and keys in arguments.ts): a wrong value fails here with its name.

function ref(value: unknown, name: string): number | string {
  if (typeof value === 'string' && value.trim() !== '') return pathSegment(value, name);
  if (typeof value === 'number') return id(value, name);
  throw invalidOption(name, `must be a positive integer id or a slug (got ${describeValue(value)}).`);
}

function perPage(value: unknown): number | undefined {
  return value === undefined ? undefined : integerOption(FormsApiError, value, 'perPage', { max: 100 });
}

function page(value: unknown): number | undefined {
  return value === undefined ? undefined : integerOption(FormsApiError, value, 'page');
}

function formQuery(query: FormListQuery): ListFormsQuery {
  known(query, ['page', 'perPage'], 'the forms query');
  return { page: page(query.page), per_page: perPage(query.perPage) };
}

const STATUSES = new Set(['completed', 'partial', 'all']);

function submissionQuery(query: SubmissionListQuery): ListSubmissionsQuery {
  known(query, ['page', 'perPage', 'search', 'status'], 'the submissions query');
  if (query.search !== undefined && typeof query.search !== 'string')
    throw invalidOption('search', 'must be a string.');
  if (query.status !== undefined && !STATUSES.has(query.status))
    throw invalidOption('status', `must be one of completed, partial, all (got ${describeValue(query.status)}).`);
  return { page: page(query.page), per_page: perPage(query.perPage), search: query.search, status: query.status };
}

/** How a form's submissions are walked page by page: shared by `pages`, `iterate` and the export. */
export function submissionWalk(
  list: (query: SubmissionListQuery, options: CallOptions) => Promise<SubmissionPage>,
  formId: number,
  query: SubmissionListQuery,
  options: PageOptions,
): Walk<SubmissionPage> {
  const { maxPages, call: callOptions } = pageOptions(options);
  const perPage = query.perPage ?? ITERATE_PER_PAGE;
  submissionQuery({ ...query, perPage });
  return {
    label: `submissions of form ${formId}`,
    fetch: (page) => list({ ...query, perPage, page }, callOptions),
    isLast: (p) => !p.meta || p.meta.current_page >= p.meta.last_page,
    startPage: query.page ?? 1,
    maxPages,
    perPage,
  };
}

function pageOptions(options: PageOptions): { maxPages: number; call: CallOptions } {
  const { maxPages = DEFAULT_MAX_PAGES, ...call } = options;
  return { maxPages: integerOption(FormsApiError, maxPages, 'maxPages'), call };
}
