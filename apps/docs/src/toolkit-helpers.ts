// What of this toolkit already follows a ledger entry's advice, by entry id: the "Known
// differences" page names it after the advice. test/known-differences-name-the-toolkit-helper
// checks that each id is in the ledger and each helper is in its package's source.

/** The helper that does what the advice says, as a sentence of Markdown; ledger id → sentence. */
export const TOOLKIT_HELPERS: Readonly<Record<string, string>> = (() => {
  const pages =
    '`forms.submissions.iterate()` and `forms.submissions.pages()` of `@forms-api/client` request `page=1,2,…` themselves with your `search`, `status` and `perPage` on every request, and never follow `links` (see "Quick start with the client").';
  const keeping =
    '`forms.submissions.updateKeeping()` of `@forms-api/client` reads the submission and its form, merges your changes over the current answers (file and signature answers as the stored names the service takes back), keeps `completion_time` and sends the complete set.';
  const idempotent =
    '`@forms-api/webhook-inbox` gives your handler `submissionKey` (`form_id:submission_id`, also `submissionKeyFor(payload)`): upsert on it, and a later delivery for the same submission replaces the earlier answers (see "Never lose a submission").';
  return {
    'submissions-links-drop-filters': pages,
    'form-list-meta-extended':
      '`forms.iterate()` and `forms.pages()` of `@forms-api/client` request each page themselves, so the extra keys never matter.',
    'update-submission-replaces-all-answers': keeping,
    'update-submission-requires-every-required-field': keeping,
    'update-submission-file-answers-as-listed-refused': keeping,
    'update-submission-emits-webhook': idempotent,
    'answer-edit-resends-webhook': idempotent,
    'partial-submission-webhook-on-completion': idempotent,
  };
})();
