// What a behaviour is: rewrites applied around the sandbox, and rules it takes in place of the
// contract's. A request rewrite runs before the sandbox sees a request, a response rewrite before
// the client sees the answer, a delivery rewrite before a webhook leaves; rules replace named
// decisions of the service (src/rules.ts) that the ordinary code delegates. Fault switches are
// behaviours; so is the `observed` profile. The ordinary code never knows which are applied.
import type { Ability } from '@forms-api/types';
import type { OutgoingDelivery } from '../dispatch/transport.js';
import type { SandboxRules } from '../rules.js';

export type { OutgoingDelivery };

/** A request as a behaviour sees it: the method, the path with its query, lowercase header names. */
export interface ExchangeRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
}

/** A response as a behaviour sees it; the body is text (every answer of the sandbox is). */
export interface ExchangeResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What a behaviour may ask of the sandbox it is applied to. */
export interface SandboxView {
  /** A token of the same user as `token` that holds every one of `abilities`, if the seed has one. */
  tokenOfSameUserWith(token: string, abilities: readonly Ability[]): string | undefined;
  /** The token the sandbox issued with this id (the part of `id|secret` before the bar). */
  tokenWithId(id: string): string | undefined;
  /** The id of the token's user, for a token the sandbox issued. */
  userOf(token: string): number | undefined;
  /** The user's role in the workspace as it is now; undefined for no member. */
  roleIn(userId: number, workspaceId: number): 'admin' | 'user' | 'readonly' | undefined;
  /** Whether the token itself holds every one of `abilities`. */
  tokenHolds(token: string, abilities: readonly Ability[]): boolean;
  /** The form a submission belongs to, whichever form's path names it. */
  formOfSubmission(submissionId: number): number | undefined;
  /** The form an integration belongs to. */
  formOfIntegration(integrationId: number): number | undefined;
  /** Whether the user of `token` is a member of the workspace of the form (by id or slug). */
  reaches(token: string, form: string): boolean;
  /** A token of a member of the form's workspace holding every one of `abilities`. */
  tokenReaching(form: string, abilities: readonly Ability[]): string | undefined;
  /** Another form of the same workspace as `form` (by id or slug), if it has one. */
  siblingForm(form: string): number | undefined;
  /** A token of a member of the workspace holding every one of `abilities`. */
  tokenInWorkspace(workspaceId: number, abilities: readonly Ability[]): string | undefined;
  /** Another form of the same workspace as `form` (by id or slug) that has integrations, if one does. */
  siblingFormWithIntegrations(form: string): number | undefined;
}

export interface Behaviour {
  readonly name: string;
  readonly description: string;
  /** Changes the request before the sandbox handles it. */
  request?(req: ExchangeRequest, sandbox: SandboxView): void;
  /** Changes the answer; `req` is the request as the client sent it. */
  response?(req: ExchangeRequest, res: ExchangeResponse): void;
  /** Changes an outgoing webhook request before it is sent. */
  delivery?(delivery: OutgoingDelivery): void;
  /** Rules the sandbox takes instead of the contract's, seam by seam. */
  readonly rules?: Partial<SandboxRules>;
}
