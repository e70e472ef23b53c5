// The sandbox's data model: what the store keeps and what a seed fixture describes.
import type { Ability } from '@forms-api/types';

export type { Ability };
export type Plan = 'pro' | 'free';
export type Role = 'admin' | 'user' | 'readonly';
/**
 * The tokens every seed defines: all abilities, each ability alone, none, and two of other users
 * (an outsider to workspace 1, a read-only member).
 */
export const TOKEN_NAMES = ['all', 'read', 'write', 'integrations', 'none', 'outsider', 'readonly'] as const;
/** Tokens a seed may add (the default seed does): each pair of form abilities that lacks one, and the ones below. */
export const OPTIONAL_TOKEN_NAMES = [
  'withoutRead',
  'withoutWrite',
  'withoutIntegrations',
  /** A member of workspace 1 with the role `user` (neither admin nor read-only), every ability. */
  'editor',
  /** Workspace 1's admin, holding only `workspaces-read`, or only `workspaces-write`. */
  'workspacesRead',
  'workspacesWrite',
] as const;
export type TokenName = (typeof TOKEN_NAMES)[number] | (typeof OPTIONAL_TOKEN_NAMES)[number];
/** The tokens of a started sandbox, by name. */
export type SandboxTokens = Record<(typeof TOKEN_NAMES)[number], string> &
  Partial<Record<(typeof OPTIONAL_TOKEN_NAMES)[number], string>>;

export interface Workspace {
  id: number;
  name: string;
  plan: Plan;
  /** The workspace's emoji (the service's `icon`); none when absent. */
  icon?: string;
  /** Unix milliseconds; the seed's base time when absent. */
  createdAt?: number;
}

export interface User {
  id: number;
  name: string;
  /** Shown to the members of the user's workspaces; `user<id>@example.com` when absent. */
  email?: string;
  memberships: Array<{ workspaceId: number; role: Role }>;
}

/** An invitation to join a workspace, sent by email to someone without an account. */
export interface Invite {
  id: number;
  workspaceId: number;
  email: string;
  role: Role;
  status: 'pending' | 'accepted';
  /** Unix milliseconds: seven days after it was sent (the service's UserInvite). */
  validUntil: number;
  createdAt: number;
}

export interface AccessToken {
  name: string;
  token: string;
  userId: number;
  abilities: Ability[];
}

export interface FieldOption {
  id: string;
  name: string;
}

export interface Field {
  id: string;
  name: string;
  type: string;
  required?: boolean;
  hidden?: boolean;
  select?: { options: FieldOption[] };
  multi_select?: { options: FieldOption[] };
  /** A matrix field's rows; its answer is an object mapping each row to one of `columns`. */
  rows?: string[];
  columns?: string[];
}

export interface Form {
  id: number;
  workspaceId: number;
  slug: string;
  title: string;
  visibility: 'public' | 'draft' | 'closed';
  /** Null when the form was saved with no tags (the service keeps null). */
  tags: string[] | null;
  language: string;
  /** The captcha a respondent must solve, when the form has one. */
  captchaProvider?: 'recaptcha' | 'hcaptcha';
  properties: Field[];
  viewsCount: number;
  createdAt: string;
  updatedAt: string;
  closesAt: string | null;
  maxSubmissionsCount: number | null;
  /** The form keeps partial submissions (`enable_partial_submissions`; the service also needs a Pro plan). */
  partialSubmissions?: boolean;
  /** Respondents may edit their submission (`editable_submissions`; Pro). */
  editableSubmissions?: boolean;
  /** The submitter's address is kept (`enable_ip_tracking`; Pro). */
  ipTracking?: boolean;
  /**
   * The required styling keys of a form written through createForm or updateForm (`theme`, `size`,
   * …), kept and shown by getForm so that a form read back can be sent back whole.
   */
  style?: Record<string, unknown>;
}

/** Stored answers: file and signature answers are stored file names (string[]). */
export type Answers = Record<string, unknown>;

export interface Submission {
  id: number;
  formId: number;
  status: 'completed' | 'partial';
  answers: Answers;
  completionTime: number | null;
  /** Unix milliseconds. */
  createdAt: number;
  publicId: string;
  /** What the service keeps beside the answers: campaign attribution of a new answer, the submitter's address. */
  meta?: { attribution?: Record<string, string>; ip_address?: string };
}

export interface Integration {
  id: number;
  formId: number;
  status: 'active' | 'inactive';
  /** `webhook_headers` is present only when it was sent (an object, possibly empty). */
  data: { webhook_url: string; webhook_secret?: string | null; webhook_headers?: Record<string, string> };
  /** Conditions on the answers (see dispatch/logic.ts); null for none. */
  logic: Record<string, unknown> | null;
  createdAt: number;
  updatedAt: number;
}

/** What became of one dispatch of submission.created to one integration. */
export type DeliveryOutcome =
  | { kind: 'answered'; status: number; excerpt: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'timeout'; afterMs: number }
  /** `code`: Node's error code (ECONNREFUSED, ENOTFOUND, …) when there is one. */
  | { kind: 'unreachable'; message: string; code?: string }
  /** The integration's logic did not match the submission: nothing was sent. */
  | { kind: 'skipped' };

/** One dispatch as recorded: where it went and what became of it; presenters give it its shape. */
export interface WebhookEventRecord {
  id: number;
  integrationId: number;
  url: string;
  outcome: DeliveryOutcome;
  createdAt: number;
}

/** A seed fixture: the state a fresh sandbox (or a reset) starts from. */
export interface SeedFixture {
  workspaces: Workspace[];
  users: User[];
  tokens: AccessToken[];
  forms: Form[];
  submissions: Submission[];
  integrations?: Integration[];
  invites?: Invite[];
}
