// What a suite needs to know about the service it runs against: where it is, which tokens and ids
// it may use, whether it may change data and how webhooks can reach the suite's receiver.
import type { RequestPacer } from '@forms-api/client';
import type { CoverageCollector } from '../report/coverage.js';
import { ABILITIES, type Ability } from '@forms-api/types';
import { envVariableOf, placeholderOf } from './settings.js';
import type { DriftExpectation } from '../report/model.js';
import type { SharedReceiver } from '../webhooks/receiver.js';

/**
 * The tokens a target can hold, each under its one name: its setting (the key in a --config file;
 * `FORMS_API_` + CONSTANT_CASE is its environment variable and its placeholder in reports), and
 * the abilities it carries. The 403 checks pick the tokens that carry none of an operation's.
 */
export const TOKEN_ROLES = {
  /** A token with every ability the suite needs. */
  token: { carries: ABILITIES },
  tokenWithoutFormsRead: { carries: ['forms-write', 'manage-integrations'] },
  tokenWithoutFormsWrite: { carries: ['forms-read', 'manage-integrations'] },
  tokenWithoutManageIntegrations: { carries: ['forms-read', 'forms-write'] },
  /** No ability at all (getForm accepts forms-read or manage-integrations). */
  tokenWithoutAbilities: { carries: [] },
  /** manage-integrations alone (its user may still list submissions: ledger submissions-read-with-manage-integrations). */
  tokenIntegrationsOnly: { carries: ['manage-integrations'] },
  /**
   * A token with every ability, of another user: no member of the target's workspace. The explorer
   * sends it to every read of the target's workspace and forms, which must refuse it.
   */
  otherUserToken: { carries: ABILITIES },
} as const satisfies Record<string, { carries: readonly Ability[] }>;

export type TokenName = keyof typeof TOKEN_ROLES;

/** The main token, and the optional ones (a check whose token is missing is skipped, not failed). */
export type TargetTokens = { readonly token: string } & { readonly [K in Exclude<TokenName, 'token'>]?: string };

/** The variable a user sets a token with (named in skips and used as the placeholder in reports). */
export function tokenVariable(name: TokenName): string {
  return envVariableOf(name);
}

/**
 * The token for the 403 check of an operation that accepts any one of `abilities`: one carrying none
 * of them, and of those the one carrying most (so the 403 is about this operation's abilities).
 */
export function tokenLacking(abilities: readonly Ability[]): TokenName {
  const candidates = tokensLacking(abilities);
  const best = candidates.sort((a, b) => TOKEN_ROLES[b].carries.length - TOKEN_ROLES[a].carries.length)[0];
  // tokenWithoutAbilities carries nothing, so there always is one.
  return best ?? 'tokenWithoutAbilities';
}

/** The abilities a token of the target carries, by its role; `undefined` for a token the target does not hold. */
export function abilitiesOfToken(tokens: TargetTokens, token: string): readonly Ability[] | undefined {
  const role = (Object.keys(TOKEN_ROLES) as TokenName[]).find((name) => tokens[name] === token);
  return role ? TOKEN_ROLES[role].carries : undefined;
}

/** Every token role carrying none of `abilities`. */
export function tokensLacking(abilities: readonly Ability[]): TokenName[] {
  return (Object.keys(TOKEN_ROLES) as TokenName[]).filter(
    (name) => !TOKEN_ROLES[name].carries.some((a: Ability) => abilities.includes(a)),
  );
}

/** How many pages of 100 submissions, newest first, the suite walks to find `submissionId`. */
export const SUBMISSION_SEARCH_PAGES = 20;

export interface TargetIds {
  readonly workspaceId: number;
  readonly formId: number;
  /** Slug of `formId` (Prism 5.14.2 cannot route a numeric id through getForm's id-or-slug oneOf). */
  readonly formSlug?: string;
  /**
   * A completed submission of `formId` the write tests may update (its answers are restored
   * afterwards), found among the form's newest `SUBMISSION_SEARCH_PAGES` pages of 100.
   */
  readonly submissionId?: number;
  /** An integration of `formId` whose events can be listed read-only. */
  readonly integrationId?: number;
  /** A form of a workspace without Pro, for the check that filtering `partial` is refused there. */
  readonly freeFormId?: number;
  /** A form protected by a captcha (with a completed submission), for the update check on such a form. */
  readonly captchaFormId?: number;
  /** A form of a workspace the main token cannot reach: every operation on it must be refused (the explorer). */
  readonly foreignFormId?: number;
  /** A workspace the main token's user is no member of: every read of it must be refused (the explorer). */
  readonly foreignWorkspaceId?: number;
  /**
   * The email of an account that is not a member of `workspaceId`: the --destructive checks add it
   * to that workspace, then remove it (or change its role) and leave the workspace as it was.
   */
  readonly memberEmail?: string;
}

export interface WebhookReach {
  /** The suite's receiver for this target: started at the first call, then the same one; the target's stop closes it. */
  receiver(): Promise<SharedReceiver>;
  /** The URL the tenant should call to reach `path` of the receiver listening on `localPort` (a tunnel for live tenants). */
  receiverUrl(localPort: number, path: string): string;
}

export interface Target {
  /** Name shown in the report: prism, sandbox, live, or a self-test label. */
  readonly name: string;
  /** `mock`: a Prism mock, statuses are chosen with Prefer headers. `live`: a real or sandbox tenant. */
  readonly kind: 'mock' | 'live';
  readonly baseUrl: string;
  readonly tokens: TargetTokens;
  readonly ids: TargetIds;
  /** May the suite create, update and delete (restoring what it changed)? */
  readonly write: boolean;
  /** May it add and remove workspace members and delete workspaces (temporary ones only)? (--destructive) */
  readonly destructive?: boolean;
  /**
   * --own-form (with write): the write checks act on a form the run makes and deletes (own-form.ts),
   * and answer or write to no other form of the tenant.
   */
  readonly ownForm?: boolean;
  /** Set when the tenant can reach a receiver started by the suite. */
  readonly webhooks?: WebhookReach;
  /** Run the read-only requests again through `prism proxy --errors` as a second opinion. */
  readonly proxyPass: boolean;
  /** Set on a sandbox the suite started itself: disposable, and never a tenant of the service. */
  readonly embedded?: boolean;
  /** What the ledger must show on this target (the embedded sandboxes); absent for real tenants. */
  readonly expectsDrift?: DriftExpectation;
  /**
   * The rate-limit pacer of every client the suite makes for this target (with a token or
   * without): one budget, as the service counts one.
   */
  readonly pacer?: RequestPacer;
  /** Counts the requests the suite sent to this target (for the summary). */
  readonly traffic?: TrafficMeter;
  /** Told of every exchange the checks record on this target (coverage.json). */
  readonly coverage?: CoverageCollector;
  /** Secret value -> placeholder, for redaction in every output. */
  readonly secrets: ReadonlyMap<string, string>;
  /** Stops whatever the target started (idempotent). */
  stop(): Promise<void>;
}

/** Secrets of a target's tokens mapped to the placeholder a report shows instead: their variable. */
export function tokenSecrets(tokens: TargetTokens): Map<string, string> {
  const map = new Map<string, string>();
  for (const name of Object.keys(TOKEN_ROLES) as TokenName[]) {
    const value = tokens[name];
    if (value) map.set(value, placeholderOf(name));
  }
  return map;
}

/** The requests the suite sent to a target: each send on the wire (a request sent again after a 429 included). */
export interface TrafficMeter {
  requests: number;
}
