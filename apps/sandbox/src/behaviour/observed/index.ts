// The `observed` behaviour: the sandbox as the service's code behaves (OpnForm/OpnForm at
// aee613da, laravel/framework v11.48.0) rather than as the published contract says. It replaces
// some of the sandbox's rules (src/rules.ts) and re-encodes its JSON; nothing else changes, and
// the ordinary code never knows. Read it next to spec/drift.yaml: each rule names the ledger
// entries it reproduces and the service's source lines (paths under api/ at that commit).
import { OPERATIONS, type Ability, type OperationId } from '@forms-api/types';
import { phpInt } from '../../paging.js';
import type { PathId, SandboxRules } from '../../rules.js';
import type { Behaviour } from '../behaviour.js';
import { ANSWER_FORM_REQUEST } from './answers.js';
import { encodeLikeTheFramework } from './encoding.js';
import { LARAVEL_LISTING } from './paginator.js';
import { PUBLIC_FORM_CONTROLLER } from './public-answers.js';
import { LARAVEL_RESOURCES } from './resources.js';
import { ILIKE_SEARCH } from './search.js';

/**
 * Abilities the service's policies accept beyond the spec's. FormPolicy.php:34-44: `view` (the
 * submission list) also passes with `manage-integrations` (ledger: submissions-read-with-manage-integrations).
 */
const ALSO_ACCEPTED: Partial<Record<OperationId, readonly Ability[]>> = {
  listFormSubmissions: ['manage-integrations'],
};

/** The kinds of api/resources/data/forms/integrations.json; any other (or none) makes FormIntegrationsRequest throw: 500. */
const INTEGRATION_KINDS = [
  'email',
  'slack',
  'discord',
  'telegram',
  'webhook',
  'zapier',
  'n8n',
  'activepieces',
  'make',
  'pabbly',
  'albato',
  'google_sheets',
];

/** PHP's is_numeric: optional surrounding whitespace, a sign, decimals and an exponent. */
const PHP_NUMERIC = /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/;
/** A PHP `(int)` cast of a path segment: `5abc` is 5, `abc` 0 (no record has id 0: 404). */
const intCast = (raw: string): PathId => ({ id: phpInt(raw) });

const rules: Partial<SandboxRules> = {
  abilities: (operationId) => [...OPERATIONS[operationId].abilities, ...(ALSO_ACCEPTED[operationId] ?? [])],

  // A FormRequest is validated when the action is resolved, before its first line; policies run
  // in the action, then the lookups of the records the path names.
  checkOrder: {
    // FormSubmissionController.php:82-86: 422, then 404 for the submission, then 403
    // (ledger: update-submission-validates-before-authorising).
    updateFormSubmission: ['input', 'submission', 'permission'],
    // PublicFormController.php:138-141: 422, then 403 for a closed, draft or full form.
    createFormAnswer: ['input', 'open'],
    // FormIntegrationsController.php:30-69, FormIntegrationsEventController.php:16-19: the body
    // (500 for an unknown kind, then 422), then 403, then 404 for the integration.
    createFormIntegration: ['input', 'permission'],
    updateFormIntegration: ['input', 'permission', 'integration'],
    deleteFormIntegration: ['permission', 'integration'],
    listIntegrationEvents: ['permission', 'integration'],
  },

  // per_page and page links (ledger: form-list-meta-extended, submissions-per-page-not-validated,
  // submissions-links-drop-filters).
  listing: LARAVEL_LISTING,

  // FormSubmissionController.php:56-64: no plan is checked; `partial` lists the partial
  // submissions on every plan (ledger: submissions-partial-filter-not-gated).
  partialFilterPlans: ['pro', 'free'],

  // FormSubmissionController.php:41-53 (ledger: submissions-search-matches-keys-and-wildcards,
  // submissions-search-zero-ignored).
  search: ILIKE_SEARCH,

  // AnswerFormRequest and StoreFormSubmissionJob (ledger: update-submission-requires-every-required-field,
  // update-submission-captcha-token-required, update-submission-replaces-all-answers).
  answers: ANSWER_FORM_REQUEST,

  // The API resources (ledger: form-summary-plan-tier, form-summary-tags-null,
  // update-submission-response-shape, submission-file-answer-object, events-shape).
  present: LARAVEL_RESOURCES,

  // PublicFormController.php:112-254 (audit row 4; ledger D2, D3, D4).
  publicAnswers: PUBLIC_FORM_CONTROLLER,

  integrations: {
    knownKinds: INTEGRATION_KINDS,
    // WebhookIntegration.php:13-28, 63-66: `Authorization` is refused like the names the spec lists
    // (ledger: webhook-authorization-header-refused).
    blockedHeaders: (specNames) => ['Authorization', ...specNames],
  },

  webhooks: {
    // StoreFormSubmissionJob.php:93-96: every completed save fires FormSubmitted, an update
    // through the API included (ledger: update-submission-emits-webhook).
    // A partial sends nothing (StoreFormSubmissionJob.php:94-96; ledger: partial-submission-webhook-on-completion).
    firedBy: ['created', 'updated'],
    // AbstractIntegrationHandler.php:88-105: an event for every run, and a success when the
    // logic sent nothing (ledger: webhook-success-recorded-without-dispatch).
    recorded: () => true,
    // WebhookIntegration.php:140-145 sets no User-Agent: Guzzle's default (Utils::defaultUserAgent).
    userAgent: 'GuzzleHttp/7',
    // AbstractIntegrationHandler.php:189: the receiver's whole answer, JSON-decoded, is kept (the
    // sandbox reads at most 1 MiB of it, its request body limit).
    answerBytes: 1024 * 1024,
    // NotifyFormSubmission.php:11 (ShouldQueue): the answer does not wait for the delivery.
    queued: true,
    // CleanIntegrationEvents.php:31, Console/Kernel.php:29: events older than 14 days are deleted daily.
    eventRetentionMs: 14 * 24 * 60 * 60 * 1000,
    // AbstractIntegrationHandler.php:172-179: `edit_link` for editable submissions, `meta.attribution` when kept.
    payloadExtras: true,
    // AbstractIntegrationHandler.php:147-166: an empty PHP array is encoded as a list (ledger:
    // webhook-submission-empty-array).
    emptyAnswersAs: 'list',
  },

  // Kernel.php:158-162, routes/api.php:261-264: `throttle:100,1` covers the whole api group, the
  // signed file route included; without a user there, it is keyed by the client address.
  fileRouteRateLimited: true,

  // Laravel's Request::json() casts what json_decode gives to an array: invalid JSON, `null` or a
  // scalar is empty input (then validated as such), never a 422 of its own (audit row 15). A body
  // without a JSON content type is not read as JSON at all (Request::getInputSource() takes
  // json() only when isJson(): `/json` or `+json` in Content-Type); PublicFormController.php:152-154
  // reads `$request->all()`/`validated()`, and no middleware of the stack (Kernel.php:39-51)
  // refuses a content type, so a `text/plain` answer is empty input, validated as such.
  notAnObjectBody: 'empty',

  ids: {
    // AppServiceProvider.php:59-70: `is_numeric` then `(int)`, else the form with that slug, on every route.
    form: (raw) => (PHP_NUMERIC.test(raw) ? intCast(raw) : { slug: raw }),
    // AppServiceProvider.php:53-57 ({workspace}), FormIntegrationsController.php:54,68 and
    // FormIntegrationsEventController.php:19 ({integrationid}): `(int)` casts.
    integer: intCast,
    // FormSubmissionController.php:84: `where('id', $submission_id)` on an integer column:
    // PostgreSQL refuses any text that is not an integer, a 500.
    submission: (raw) => (/^[ \t\n\r]*[+-]?\d+[ \t\n\r]*$/.test(raw) ? { id: Number(raw) } : 'server-error'),
  },

  // FormSubmissionController.php:204-214: on cloud storage, a redirect to a pre-signed storage
  // URL valid one minute, which serves the file as application/octet-stream.
  download: (ctx, file) =>
    new Response(null, { status: 302, headers: { location: ctx.storage.presign(ctx.baseUrl, file) } }),
};

export const OBSERVED_BEHAVIOUR: Behaviour = {
  name: 'observed',
  description: "behaves like the service's code (OpnForm aee613da) where it departs from the published contract",
  rules,
  response: encodeLikeTheFramework,
};
