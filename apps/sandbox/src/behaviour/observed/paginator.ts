// The two lists as Laravel's paginator makes them in the service's controllers: the workspace form
// list keeps the whole query in its links (`withQueryString()`), the submission list keeps none of
// it, and the submission list's page size is `min((int) per_page, 100)` and nothing else.
import { paginatedEnvelope, pageUrl, phpInt, type ListingRules } from '../../paging.js';

export const LARAVEL_LISTING: ListingRules = {
  // FormSubmissionController.php:70. Eloquent's paginate() reads 0 as the model's 15 per page, and
  // SQL drops a negative LIMIT: every matching row on one page (ledger: submissions-per-page-not-validated).
  submissionsPerPage(value) {
    const n = value === undefined ? 100 : Math.min(phpInt(value), 100);
    return n === 0 ? 15 : n;
  },
  // FormController.php:69-72: `paginate()->withQueryString()`, the full paginator envelope
  // (ledger: form-list-meta-extended); every link keeps the query but `page`, which comes last.
  workspaceFormsBody: (page, request) => {
    const kept = request.query.filter(([name]) => name !== 'page');
    return paginatedEnvelope(page, request.path, (n) => pageUrl(request.path, kept, n));
  },
  // FormSubmissionController.php:72: `paginate()` alone, so every link is `<path>?page=N`
  // (ledger: submissions-links-drop-filters).
  submissionsBody: (page, request) => paginatedEnvelope(page, request.path, (n) => pageUrl(request.path, [], n)),
};
