// An update of a submission that keeps every answer it does not change. The service's update
// replaces the whole submission (ledger: update-submission-replaces-all-answers): this reads the
// current answers, merges the changes and sends the complete set, in the form the service takes back.
import { answersToSendBack } from '@forms-api/internal/answers';
import type { AnswerValue, Form, Submission, UpdatedSubmission } from '@forms-api/types';
import type { Caller } from './call.js';
import { FormsApiError, invalidOption } from './errors.js';
import type { CallOptions } from './options.js';
import { integerOption } from '@forms-api/internal/option-names';
import { submissionUpdate } from './arguments.js';

export interface UpdateKeepingOptions extends CallOptions {
  /**
   * Seconds the respondent took, stored as `completion_time`. Default: the submission's current
   * value, kept (the service would otherwise reset it to null).
   */
  completionTime?: number;
  /**
   * The submission as you already hold it (an item of `submissions.list`, `pages` or `iterate`):
   * its answers are merged and sent, and no list is walked to read them. An answer changed on the
   * service since you read it is overwritten with your copy.
   */
  current?: Pick<Submission, 'id' | 'data' | 'completion_time'> & { form_id?: number };
  /**
   * Narrows the walk to the submissions with an answer that contains this text (the list's
   * `search`: an email, a name): on a long list, a few requests instead of one per 100.
   */
  search?: string;
  /** Stop looking for the submission after this many pages of 100 (default 10 000). */
  maxPages?: number;
}

/** Changes keyed by field id: the new answer, or `null` to clear one. */
export type AnswerChanges = { [fieldId: string]: AnswerValue };

/** What `submissions.updateKeeping` changes: the submission, named with its form, and the changes. */
export interface SubmissionChanges {
  /** The form's id. */
  form: number;
  /** The submission's id. */
  submission: number;
  /** The answers to change; every other answer is kept. */
  changes: AnswerChanges;
}

/** The complete body of an update: every current answer, the changes over them, `completion_time` kept unless given. */
export function mergedUpdateBody(
  form: Pick<Form, 'properties'>,
  current: Pick<Submission, 'data' | 'completion_time'>,
  changes: AnswerChanges,
  completionTime?: number,
): Record<string, unknown> {
  const body = answersToSendBack(form.properties, current.data, completionTime ?? current.completion_time);
  for (const [key, value] of Object.entries(changes)) body[key] = value;
  return body;
}

/**
 * `submissions.updateKeeping({ form, submission, changes }, options)`: reads the submission and its
 * form, merges `changes` over the current answers and sends the complete set (a replacing update).
 *
 * Not atomic: the service has no conditional update, so a change made by anyone else between the
 * read and the write is overwritten. Serialise updates of one submission on your side.
 */
export function updateKeeping(call: Caller) {
  return async (update: SubmissionChanges, options: UpdateKeepingOptions = {}): Promise<UpdatedSubmission> => {
    const {
      form: formId,
      submission: submissionId,
      changes,
    } = submissionUpdate(update, 'submissions.updateKeeping', 'changes');
    const { completionTime, current: held, search, maxPages = 10_000, ...callOptions } = options;
    integerOption(FormsApiError, maxPages, 'maxPages');
    if (search !== undefined && (typeof search !== 'string' || search.trim() === ''))
      throw invalidOption('search', 'must be a non-empty text one of the answers of the submission contains.');
    if (held !== undefined) heldSubmission(held, formId, submissionId);
    if (completionTime !== undefined)
      integerOption(FormsApiError, completionTime, 'completionTime', { min: 0, unit: 'seconds' });
    const form = await call('getForm', { params: { path: { form: formId } } }, callOptions);
    const unknown = Object.keys(changes).filter((key) => !form.properties.some((field) => field.id === key));
    if (unknown.length > 0)
      throw invalidOption(
        'changes',
        `keys ${unknown.join(', ')} are not field ids of form ${formId}; key answers by field id (form.properties[].id).`,
      );
    const current = held ?? (await findSubmission(call, { formId, submissionId, search, maxPages }, callOptions));
    const body = mergedUpdateBody(form, current, changes, completionTime) as Record<string, AnswerValue>;
    return call(
      'updateFormSubmission',
      { params: { path: { id: formId, submission_id: submissionId } }, body },
      callOptions,
    );
  };
}

/** `current`, checked: the submission named, of the form named, with its answers. */
function heldSubmission(held: unknown, formId: number, submissionId: number): void {
  const value = held as { id?: unknown; form_id?: unknown; data?: unknown } | null;
  if (value === null || typeof value !== 'object' || value.data === null || typeof value.data !== 'object')
    throw invalidOption('current', 'must be the submission as listed ({ id, data, completion_time }).');
  if (value.id !== submissionId || (value.form_id !== undefined && value.form_id !== formId))
    throw invalidOption(
      'current',
      `is not submission ${submissionId} of form ${formId}: pass the listed submission the update names; nothing was sent.`,
    );
}

interface Walk {
  formId: number;
  submissionId: number;
  search: string | undefined;
  maxPages: number;
}

/** The submission with this id, walking the list (the service has no read of one submission). */
async function findSubmission(
  call: Caller,
  { formId, submissionId, search, maxPages }: Walk,
  options: CallOptions,
): Promise<Submission> {
  let pages = 0;
  let listed = 0;
  let ended = false;
  while (!ended && pages < maxPages) {
    const page = await call(
      'listFormSubmissions',
      { params: { path: { id: formId }, query: { status: 'all', per_page: 100, page: pages + 1, search } } },
      options,
    );
    pages++;
    listed += page.data.length;
    const found = page.data.find((submission) => submission.id === submissionId);
    if (found) return found;
    ended = page.data.length === 0 || page.meta.current_page >= page.meta.last_page;
  }
  // What was really searched: the pages read, and whether they were the whole list.
  const read = `${listed} submissions${search === undefined ? '' : ' matching `search`'}, ${pages} ${pages === 1 ? 'page' : 'pages'}`;
  throw new FormsApiError(
    'not_found',
    ended
      ? `Submission ${submissionId} is not in the list of form ${formId} (the whole list was read: ${read}): check both ids${search === undefined ? '' : ", and that one of the submission's answers contains `search`"}; nothing was updated.`
      : `Submission ${submissionId} is not in the first ${read} of the list of form ${formId}, where the walk stopped at \`maxPages\` (${maxPages}): pass the submission you hold as \`current\`, narrow the walk with \`search\`, or raise \`maxPages\`; nothing was updated.`,
  );
}
