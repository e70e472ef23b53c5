// The sandbox's data model: what the store keeps and what a seed fixture describes.
import type { Ability } from '@forms-api/types';

export type { Ability };
export type Plan = 'pro' | 'free';
export type Role = 'admin' | 'user' | 'readonly';
export const TOKEN_NAMES = ['all', 'read', 'write', 'integrations', 'none', 'outsider', 'readonly'] as const;
export type TokenName = (typeof TOKEN_NAMES)[number];

export interface Workspace {
  id: number;
  name: string;
  plan: Plan;
}

export interface User {
  id: number;
  name: string;
  memberships: Array<{ workspaceId: number; role: Role }>;
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
}

export interface Form {
  id: number;
  workspaceId: number;
  slug: string;
  title: string;
  visibility: 'public' | 'draft' | 'closed';
  tags: string[];
  language: string;
  properties: Field[];
  viewsCount: number;
  createdAt: string;
  updatedAt: string;
  closesAt: string | null;
  maxSubmissionsCount: number | null;
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
}

export interface Integration {
  id: number;
  formId: number;
  status: 'active' | 'inactive';
  data: { webhook_url: string; webhook_secret?: string | null; webhook_headers?: Record<string, string> };
  logic: Record<string, unknown> | null;
  createdAt: number;
  updatedAt: number;
}

export interface WebhookEventRecord {
  id: number;
  integrationId: number;
  status: 'success' | 'failed' | 'timeout';
  responseCode: number | null;
  errorMessage: string | null;
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
}
