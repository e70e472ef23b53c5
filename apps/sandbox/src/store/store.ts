// In-memory state of one sandbox, loaded from a seed fixture and restorable with reset().
// Owned by the sandbox that created it: no module-level state.
import { randomUUID } from 'node:crypto';
import type { AccessToken, Ability, Answers, Form, Integration, SeedFixture, Submission, User, WebhookEventRecord, Workspace } from '../model.js';

export class SandboxStore {
  #seed: SeedFixture;
  workspaces = new Map<number, Workspace>();
  users = new Map<number, User>();
  tokens = new Map<string, AccessToken>();
  forms = new Map<number, Form>();
  /** Per form, newest first (created_at descending, then id descending). */
  submissions = new Map<number, Submission[]>();
  integrations = new Map<number, Integration>();
  events = new Map<number, WebhookEventRecord[]>();
  #nextSubmissionId = 1;
  #nextIntegrationId = 1;
  #nextEventId = 1;

  constructor(seed: SeedFixture) {
    this.#seed = structuredClone(seed);
    this.reset();
  }

  reset(): void {
    const seed = structuredClone(this.#seed);
    this.workspaces = new Map(seed.workspaces.map((w) => [w.id, w]));
    this.users = new Map(seed.users.map((u) => [u.id, u]));
    this.tokens = new Map(seed.tokens.map((t) => [t.token, t]));
    this.forms = new Map(seed.forms.map((f) => [f.id, f]));
    this.submissions = new Map(seed.forms.map((f) => [f.id, [] as Submission[]]));
    for (const s of seed.submissions) this.submissions.get(s.formId)?.push(s);
    for (const list of this.submissions.values()) list.sort(newestFirst);
    this.integrations = new Map((seed.integrations ?? []).map((i) => [i.id, i]));
    this.events = new Map();
    this.#nextSubmissionId = Math.max(0, ...seed.submissions.map((s) => s.id)) + 1;
    this.#nextIntegrationId = Math.max(0, ...(seed.integrations ?? []).map((i) => i.id)) + 1;
    this.#nextEventId = 1;
  }

  formByIdOrSlug(idOrSlug: string): Form | undefined {
    if (/^\d+$/.test(idOrSlug)) return this.forms.get(Number(idOrSlug));
    return [...this.forms.values()].find((f) => f.slug === idOrSlug);
  }

  formsOf(workspaceId: number): Form[] {
    return [...this.forms.values()].filter((f) => f.workspaceId === workspaceId).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id);
  }

  /** A token of the same user holding every one of the abilities. */
  tokenOfSameUserWith(token: string, abilities: readonly Ability[]): AccessToken | undefined {
    const owner = this.tokens.get(token)?.userId;
    if (owner === undefined) return undefined;
    return [...this.tokens.values()].find((t) => t.userId === owner && abilities.every((a) => t.abilities.includes(a)));
  }

  submissionsOf(formId: number): Submission[] {
    return this.submissions.get(formId) ?? [];
  }

  completedCount(formId: number): number {
    return this.submissionsOf(formId).filter((s) => s.status === 'completed').length;
  }

  addSubmission(formId: number, status: Submission['status'], answers: Answers, completionTime: number | null, now: number): Submission {
    const submission: Submission = { id: this.#nextSubmissionId++, formId, status, answers, completionTime, createdAt: now, publicId: randomUUID() };
    const list = this.submissions.get(formId)!;
    list.push(submission);
    list.sort(newestFirst);
    return submission;
  }

  integrationsOf(formId: number): Integration[] {
    return [...this.integrations.values()].filter((i) => i.formId === formId).sort((a, b) => a.id - b.id);
  }

  addIntegration(formId: number, fields: Pick<Integration, 'status' | 'data' | 'logic'>, now: number): Integration {
    const integration: Integration = { id: this.#nextIntegrationId++, formId, ...fields, createdAt: now, updatedAt: now };
    this.integrations.set(integration.id, integration);
    return integration;
  }

  recordEvent(integrationId: number, event: Omit<WebhookEventRecord, 'id' | 'integrationId'>): WebhookEventRecord {
    const record: WebhookEventRecord = { id: this.#nextEventId++, integrationId, ...event };
    const list = this.events.get(integrationId) ?? [];
    list.push(record);
    this.events.set(integrationId, list);
    return record;
  }

  /** Events of an integration, newest first. */
  eventsOf(integrationId: number): WebhookEventRecord[] {
    return [...(this.events.get(integrationId) ?? [])].sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
  }
}

function newestFirst(a: Submission, b: Submission): number {
  return b.createdAt - a.createdAt || b.id - a.id;
}
