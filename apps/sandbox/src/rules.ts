// The service's decisions the sandbox takes by name, one seam each: who may call an operation, in
// which order an operation's checks run, how lists read their page size and lay out their pages,
// how search matches, what answers must hold and what an update makes of a submission, how records
// are shown, which saves send the webhook and which outcomes are recorded, how a file is handed
// out. The ordinary code asks these rules and never knows who supplied them: the published
// contract's are the default (CONTRACT_RULES); a behaviour profile (src/behaviour/) replaces some.
import type { Ability } from '@forms-api/types';
import { OPERATIONS, type OperationId } from '@forms-api/types';
import { CONTRACT_ANSWERS, type AnswerRules } from './answers.js';
import { RECEIVER_EXCERPT_BYTES } from './dispatch/transport.js';
import { fileAttachment, type StoredFile } from './files.js';
import type { DeliveryOutcome, Form, Plan, Submission } from './model.js';
import { CONTRACT_LISTING, type ListingRules } from './paging.js';
import { CONTRACT_PRESENTERS, type Presenters } from './presenters.js';
import type { RuleContext } from './rule-context.js';
import { CONTRACT_SEARCH, type SubmissionSearch } from './store/search.js';

export type { AnswerRules, ListingRules, Presenters, SubmissionSearch };

/** A save of a submission that may send submission.created: a completed one created, a partial one created, an update. */
export type SubmissionSave = 'created' | 'partial' | 'updated';

export interface IntegrationRules {
  /** The integration kinds the service knows; a body naming none of them is answered 500, before any validation. */
  knownKinds: readonly string[];
  /** The custom webhook header names refused (422), given the names the spec lists. */
  blockedHeaders(specNames: readonly string[]): readonly string[];
}

/** What a path segment names: a record id, a slug, nothing (404), or a failure of the service's own (500). */
export type PathId = { id: number } | { slug: string } | 'not-found' | 'server-error';

export interface IdRules {
  /** A `{form}` segment; `slugs`: whether this route takes a slug (the contract's public routes and getForm). */
  form(raw: string, slugs: boolean): PathId;
  /** A `{workspaceId}` or `{integrationid}` segment. */
  integer(raw: string): PathId;
  /** A `{submission_id}` segment. */
  submission(raw: string): PathId;
}

const DIGITS = /^\d+$/;
const digitsOnly = (raw: string): PathId => (DIGITS.test(raw) ? { id: Number(raw) } : 'not-found');

/** How the public answer endpoint saves: partial or completed, new or resumed, and what it keeps beside the answers. */
export interface PublicAnswerRules {
  /** Whether this answer is saved as a partial submission. */
  partial(form: Form, plan: Plan, body: Record<string, unknown>): boolean;
  /** A partial answer with no field answered is refused (422 `{type: "error", message}`). */
  refusesEmptyPartial: boolean;
  /** The submission this answer continues (a partial completed, a submission edited), or undefined for a new one; throws 404 for an unknown identifier. */
  resumes(
    store: { submissionsOf(formId: number): readonly Submission[] },
    form: Form,
    plan: Plan,
    body: Record<string, unknown>,
  ): Submission | undefined;
  /** What is kept beside the answers of a saved submission. */
  meta(
    form: Form,
    plan: Plan,
    body: Record<string, unknown>,
    clientAddress: string,
    isNew: boolean,
    current?: Submission['meta'],
  ): Submission['meta'];
  /** Whether the answer says `is_first_submission: true` for the form's first completed submission. */
  reportsFirstSubmission: boolean;
}

export interface WebhookRules {
  /** The saves that send submission.created to the form's active webhooks. */
  firedBy: readonly SubmissionSave[];
  /** Whether a dispatch with this outcome is recorded as an event. */
  recorded(outcome: DeliveryOutcome): boolean;
  /** The User-Agent of a delivery. */
  userAgent: string;
  /** How much of a receiver's answer is read and kept for the event. */
  answerBytes: number;
  /** Whether the answer that saved a submission is sent before its deliveries (queued, as a job) rather than after them. */
  queued: boolean;
  /** How long events are kept (null: for ever). */
  eventRetentionMs: number | null;
  /** What `submission` and `data` are in a payload when no field has a value: the contract's empty object, or PHP's empty array `[]`. */
  emptyAnswersAs: 'object' | 'list';
  /** The payload also carries the service's conditional `edit_link` and `meta` (AbstractIntegrationHandler.php:172-179). */
  payloadExtras: boolean;
}

export interface SandboxRules {
  /** The abilities of which a token must hold one to call the operation. */
  abilities(operationId: OperationId): readonly Ability[];
  /**
   * The order of an operation's named checks where it is not the order the route lists them in
   * (see runChecks in context.ts).
   */
  checkOrder: Partial<Record<OperationId, readonly string[]>>;
  listing: ListingRules;
  /** The plans on which the submission list may filter `status=partial` (elsewhere 403). */
  partialFilterPlans: readonly Plan[];
  search: SubmissionSearch;
  answers: AnswerRules;
  present: Presenters;
  integrations: IntegrationRules;
  webhooks: WebhookRules;
  publicAnswers: PublicAnswerRules;
  ids: IdRules;
  /**
   * A body that is not a JSON object (not JSON, or not sent with a JSON content type): refused with
   * a 422, or read as empty input.
   */
  notAnObjectBody: 'refuse' | 'empty';
  /** Whether the signed file route shares the per-address rate limit (else it is not limited). */
  fileRouteRateLimited: boolean;
  /** How a stored file is handed out by its signed URL: the file itself, or a redirect to storage. */
  download(ctx: RuleContext, file: StoredFile): Response;
}

/** The rules of the published contract, and of the spec where the contract is silent. */
export const CONTRACT_RULES: SandboxRules = {
  abilities: (operationId) => OPERATIONS[operationId].abilities,
  checkOrder: {},
  listing: CONTRACT_LISTING,
  partialFilterPlans: ['pro'],
  search: CONTRACT_SEARCH,
  answers: CONTRACT_ANSWERS,
  present: CONTRACT_PRESENTERS,
  integrations: { knownKinds: ['webhook'], blockedHeaders: (specNames) => specNames },
  // The contract: submission.created is sent when a submission is created, completed or partial.
  webhooks: {
    firedBy: ['created', 'partial'],
    emptyAnswersAs: 'object',
    recorded: (outcome) => outcome.kind !== 'skipped',
    userAgent: 'forms-api-kit-sandbox',
    answerBytes: RECEIVER_EXCERPT_BYTES,
    queued: false,
    eventRetentionMs: null,
    payloadExtras: false,
  },
  // The contract: `is_partial: true` saves a partial; every answer is a new submission.
  publicAnswers: {
    partial: (_form, _plan, body) => body.is_partial === true,
    refusesEmptyPartial: false,
    resumes: () => undefined,
    meta: () => undefined,
    reportsFirstSubmission: false,
  },
  download: fileAttachment,
  // The spec: an id is its digits; a slug only where the contract takes one.
  fileRouteRateLimited: false,
  notAnObjectBody: 'refuse',
  ids: {
    form: (raw, slugs) => (DIGITS.test(raw) ? { id: Number(raw) } : slugs ? { slug: raw } : 'not-found'),
    integer: digitsOnly,
    submission: digitsOnly,
  },
};

/** The contract's rules with each of `overrides` applied in turn (later ones win, seam by seam). */
export function rulesWith(overrides: ReadonlyArray<Partial<SandboxRules> | undefined>): SandboxRules {
  return Object.assign({}, CONTRACT_RULES, ...overrides.filter(Boolean));
}
