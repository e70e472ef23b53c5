// What a suite needs to know about the service it runs against: where it is, which tokens and ids
// it may use, whether it may change data and how webhooks can reach the suite's receiver.

export interface TargetTokens {
  /** A token with every ability the suite needs (forms-read, forms-write, manage-integrations). */
  readonly main: string;
  /** Optional tokens for the 403 checks; a check whose token is missing is skipped, not failed. */
  readonly withoutFormsRead?: string;
  readonly withoutFormsWrite?: string;
  readonly withoutManageIntegrations?: string;
  /** A token with no ability at all (getForm accepts forms-read or manage-integrations). */
  readonly withoutAbilities?: string;
  /** A token with manage-integrations but not forms-read (ledger: submissions-read-with-manage-integrations). */
  readonly integrationsOnly?: string;
}

export interface TargetIds {
  readonly workspaceId: number;
  readonly formId: number;
  /** Slug of `formId` (Prism 5.14.2 cannot route a numeric id through getForm's id-or-slug oneOf). */
  readonly formSlug?: string;
  /** A submission of `formId` the write tests may update (its answers are restored afterwards). */
  readonly submissionId?: number;
  /** An integration of `formId` whose events can be listed read-only. */
  readonly integrationId?: number;
  /** A form of a workspace without Pro, for the 402 check of the partial filter. */
  readonly freeFormId?: number;
}

export interface WebhookReach {
  /** Port of the suite's local receiver (0: any free port). */
  readonly listenPort: number;
  /** The receiver URL the tenant should call, given the local port (a tunnel for live tenants). */
  receiverUrl(localPort: number): string;
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
  /** Set when the tenant can reach a receiver started by the suite. */
  readonly webhooks?: WebhookReach;
  /** Run the read-only requests again through `prism proxy --errors` as a second opinion. */
  readonly proxyPass: boolean;
  /** Secret value -> placeholder, for redaction in every output. */
  readonly secrets: ReadonlyMap<string, string>;
  /** Stops whatever the target started (idempotent). */
  stop(): Promise<void>;
}

/** Secrets of a target's tokens mapped to the environment variable a user would hold them in. */
export function tokenSecrets(tokens: TargetTokens): Map<string, string> {
  const names: Record<keyof TargetTokens, string> = {
    main: '$FORMS_API_TOKEN',
    withoutFormsRead: '$FORMS_API_TOKEN_WITHOUT_FORMS_READ',
    withoutFormsWrite: '$FORMS_API_TOKEN_WITHOUT_FORMS_WRITE',
    withoutManageIntegrations: '$FORMS_API_TOKEN_WITHOUT_MANAGE_INTEGRATIONS',
    withoutAbilities: '$FORMS_API_TOKEN_WITHOUT_ABILITIES',
    integrationsOnly: '$FORMS_API_TOKEN_INTEGRATIONS_ONLY',
  };
  const map = new Map<string, string>();
  for (const [key, placeholder] of Object.entries(names)) {
    const value = tokens[key as keyof TargetTokens];
    if (value) map.set(value, placeholder);
  }
  return map;
}
