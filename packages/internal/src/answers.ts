// The one rule for sending a submission's answers back in an update, used by the client's
// `updateKeeping` and by the contract suite's restores and write checks. The service's update
// replaces every answer (ledger: update-submission-replaces-all-answers) and resets
// `completion_time` when it is not sent; it drops keys that are not fields of the form; and it
// takes a file answer back only as its stored file names (StorageFile.php:28-41,
// StoreFormSubmissionJob.php:417-424): entries sent as listed are refused (ledger:
// update-submission-file-answers-as-listed-refused).

/** The keys of a listed submission's `data` that are not answers (FormSubmissionResource.php:56-69). */
export const NOT_ANSWERS: ReadonlySet<string> = new Set(['status', 'created_at', 'id', 'submission_id', 'ip_address']);

/** What a field of a listed submission holds, in the form the service takes back in an update. */
export function answerToSendBack(type: string, listed: unknown): unknown {
  if (type !== 'files' && type !== 'signature') return listed;
  if (listed === null || listed === undefined) return null;
  // A file list may be listed as an object keyed by position (ledger: submission-file-answer-object).
  const entries = (
    Array.isArray(listed) ? listed : typeof listed === 'object' ? Object.values(listed) : [listed]
  ) as unknown[];
  const names = entries
    .map((entry) => (entry && typeof entry === 'object' ? (entry as { file_name?: unknown }).file_name : entry))
    .filter((name): name is string => typeof name === 'string' && name !== '');
  // A signature is one name, a string (AnswerFormRequest.php:211-213): a list is a 422, and its
  // listed file_url would clear it (StoreFormSubmissionJob.php:445-454).
  return type === 'signature' ? (names[0] ?? null) : names;
}

/**
 * The complete body of an update that keeps a listed submission's answers: each answer of a field
 * of the form (not the layout blocks, `nf-…`), as the service takes it back, and its
 * `completion_time` as whole seconds when it has one. No prototype: a field whose id is
 * `__proto__` is an answer like any other, not a setter that silently drops it.
 */
export function answersToSendBack(
  fields: ReadonlyArray<{ readonly id: string; readonly type: string }>,
  data: Readonly<Record<string, unknown>>,
  completionTime: number | null | undefined,
): Record<string, unknown> {
  const types = new Map(fields.map((field) => [field.id, field.type]));
  const body: Record<string, unknown> = Object.create(null);
  for (const [key, value] of Object.entries(data)) {
    const type = types.get(key);
    if (NOT_ANSWERS.has(key) || type === undefined || type.startsWith('nf-')) continue;
    body[key] = answerToSendBack(type, value);
  }
  if (typeof completionTime === 'number') body.completion_time = Math.round(completionTime);
  return body;
}
