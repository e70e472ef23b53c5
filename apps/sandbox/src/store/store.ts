// In-memory state of one sandbox, loaded from a seed fixture and restorable with reset().
// Owned by the sandbox that created it: no module-level state. Every change is synchronous, so a
// request sees either all of another request's change or none of it.
import { randomUUID } from 'node:crypto';
import { storedFileNames } from '../files.js';
import type {
  AccessToken,
  Ability,
  Answers,
  Form,
  Integration,
  Invite,
  Role,
  SeedFixture,
  Submission,
  User,
  WebhookEventRecord,
  Workspace,
} from '../model.js';

export interface SubmissionQuery {
  status: 'all' | 'completed' | 'partial';
  /** Keeps the submissions whose search text passes (see store/search.ts); undefined for no search. */
  matches?: (text: string) => boolean;
}

/** What an update sets on a submission (the rules decide it from the submission and the body). */
export type SubmissionState = Pick<Submission, 'answers' | 'completionTime' | 'status'>;

export class SandboxStore {
  #seed: SeedFixture;
  workspaces = new Map<number, Workspace>();
  users = new Map<number, User>();
  tokens = new Map<string, AccessToken>();
  forms = new Map<number, Form>();
  /**
   * Per form: its submissions newest first (created_at descending, then id descending), and at the
   * same index each one's search text, made on the first search and dropped when its answers change.
   */
  #submissions = new Map<number, { rows: Submission[]; texts: Array<string | undefined> }>();
  integrations = new Map<number, Integration>();
  invites = new Map<number, Invite>();
  events = new Map<number, WebhookEventRecord[]>();
  #nextWorkspaceId = 1;
  #nextFormId = 1;
  #nextInviteId = 1;
  #nextSubmissionId = 1;
  #nextIntegrationId = 1;
  #nextEventId = 1;

  readonly #searchText: (answers: Answers) => string;

  /** `searchText`: the text of a submission's answers that searches match (the search rule's). */
  constructor(seed: SeedFixture, searchText: (answers: Answers) => string) {
    this.#seed = structuredClone(seed);
    this.#searchText = searchText;
    this.reset();
  }

  reset(): void {
    const seed = structuredClone(this.#seed);
    this.workspaces = new Map(seed.workspaces.map((w) => [w.id, w]));
    this.users = new Map(seed.users.map((u) => [u.id, u]));
    this.tokens = new Map(seed.tokens.map((t) => [t.token, t]));
    this.forms = new Map(seed.forms.map((f) => [f.id, f]));
    this.#submissions = new Map(seed.forms.map((f) => [f.id, { rows: [] as Submission[], texts: [] }]));
    for (const s of seed.submissions) this.#submissions.get(s.formId)?.rows.push(s);
    for (const list of this.#submissions.values()) list.rows.sort(newestFirst);
    this.integrations = new Map((seed.integrations ?? []).map((i) => [i.id, i]));
    this.invites = new Map((seed.invites ?? []).map((i) => [i.id, i]));
    this.events = new Map();
    // Ids go on from where they were, never back to the seed's: a submission made after a reset
    // never has the id of one made before it, so its signed delivery never repeats an earlier one
    // byte for byte (a receiver's replay or dedupe store would drop it as a copy).
    this.#nextSubmissionId = Math.max(
      this.#nextSubmissionId,
      seed.submissions.reduce((max, s) => Math.max(max, s.id), 0) + 1,
    );
    this.#nextWorkspaceId = Math.max(
      this.#nextWorkspaceId,
      seed.workspaces.reduce((max, w) => Math.max(max, w.id), 0) + 1,
    );
    this.#nextInviteId = Math.max(
      this.#nextInviteId,
      (seed.invites ?? []).reduce((max, i) => Math.max(max, i.id), 0) + 1,
    );
    this.#nextFormId = Math.max(this.#nextFormId, seed.forms.reduce((max, f) => Math.max(max, f.id), 0) + 1);
    this.#nextIntegrationId = Math.max(
      this.#nextIntegrationId,
      (seed.integrations ?? []).reduce((max, i) => Math.max(max, i.id), 0) + 1,
    );
  }

  formBySlug(slug: string): Form | undefined {
    return [...this.forms.values()].find((f) => f.slug === slug);
  }

  formsOf(workspaceId: number): Form[] {
    return [...this.forms.values()]
      .filter((f) => f.workspaceId === workspaceId)
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id);
  }

  /** The workspaces the user belongs to, in id order. */
  workspacesOf(user: User): Workspace[] {
    return user.memberships
      .map((m) => this.workspaces.get(m.workspaceId))
      .filter((w): w is Workspace => w !== undefined)
      .sort((a, b) => a.id - b.id);
  }

  /** The members of a workspace with their role there, in user id order. */
  membersOf(workspaceId: number): Array<{ user: User; role: Role }> {
    const members: Array<{ user: User; role: Role }> = [];
    for (const user of [...this.users.values()].sort((a, b) => a.id - b.id)) {
      const role = user.memberships.find((m) => m.workspaceId === workspaceId)?.role;
      if (role) members.push({ user, role });
    }
    return members;
  }

  /** The invitations of a workspace, pending, accepted or expired, in id order. */
  invitesOf(workspaceId: number): Invite[] {
    return [...this.invites.values()].filter((i) => i.workspaceId === workspaceId).sort((a, b) => a.id - b.id);
  }

  /** Adds a workspace with the next id (ids go on across resets), its creator its only member, as admin. */
  addWorkspace(fields: Omit<Workspace, 'id'>, creator: User): Workspace {
    const workspace: Workspace = { id: this.#nextWorkspaceId++, ...fields };
    this.workspaces.set(workspace.id, workspace);
    creator.memberships.push({ workspaceId: workspace.id, role: 'admin' });
    return workspace;
  }

  /** Adds an invitation with the next id (ids go on across resets). */
  addInvite(fields: Omit<Invite, 'id'>): Invite {
    const invite: Invite = { id: this.#nextInviteId++, ...fields };
    this.invites.set(invite.id, invite);
    return invite;
  }

  /** Deletes a workspace with its memberships, forms and invitations (the service deletes the record). */
  deleteWorkspace(workspaceId: number): void {
    for (const form of this.formsOf(workspaceId)) this.deleteForm(form.id);
    for (const invite of this.invitesOf(workspaceId)) this.invites.delete(invite.id);
    for (const user of this.users.values())
      user.memberships = user.memberships.filter((m) => m.workspaceId !== workspaceId);
    this.workspaces.delete(workspaceId);
  }

  /** Adds a form with the next id (ids go on across resets, as for submissions). */
  addForm(fields: Omit<Form, 'id'>): Form {
    const form: Form = { id: this.#nextFormId++, ...fields };
    this.forms.set(form.id, form);
    this.#submissions.set(form.id, { rows: [], texts: [] });
    return form;
  }

  /**
   * Deletes a form as the service's soft delete is seen through the API: the form is gone from
   * every list and path, its integrations with it (so nothing is sent for it), and its
   * submissions are no longer reachable.
   */
  deleteForm(formId: number): void {
    this.forms.delete(formId);
    this.#submissions.delete(formId);
    for (const integration of this.integrationsOf(formId)) {
      this.integrations.delete(integration.id);
      this.events.delete(integration.id);
    }
  }

  /** A token of the same user holding every one of the abilities. */
  tokenOfSameUserWith(token: string, abilities: readonly Ability[]): AccessToken | undefined {
    const owner = this.tokens.get(token)?.userId;
    if (owner === undefined) return undefined;
    return [...this.tokens.values()].find((t) => t.userId === owner && abilities.every((a) => t.abilities.includes(a)));
  }

  /** Every submission of the form, newest first (the store's own list: do not change it). */
  submissionsOf(formId: number): readonly Submission[] {
    return this.#submissions.get(formId)?.rows ?? [];
  }

  /** The form's submissions with the status and answers asked for, newest first. */
  findSubmissions(formId: number, query: SubmissionQuery): readonly Submission[] {
    const list = this.#submissions.get(formId);
    if (!list) return [];
    const { status, matches } = query;
    if (status === 'all' && matches === undefined) return list.rows;
    const { rows, texts } = list;
    const found: Submission[] = [];
    for (let i = 0; i < rows.length; i++) {
      const s = rows[i]!;
      if (status !== 'all' && s.status !== status) continue;
      if (matches && !matches((texts[i] ??= this.#searchText(s.answers)))) continue;
      found.push(s);
    }
    return found;
  }

  submission(formId: number, id: number): Submission | undefined {
    return this.submissionsOf(formId).find((s) => s.id === id);
  }

  /** Whether a file or signature answer of the form holds a stored file of this name (the sandbox keeps names, not files). */
  holdsFile(formId: number, name: string): boolean {
    const form = this.forms.get(formId);
    if (!form) return false;
    const fileFields = form.properties.filter((f) => f.type === 'files' || f.type === 'signature').map((f) => f.id);
    return this.submissionsOf(formId).some((s) =>
      fileFields.some((id) => s.answers[id] != null && storedFileNames(s.answers[id]).includes(name)),
    );
  }

  completedCount(formId: number): number {
    let count = 0;
    for (const s of this.submissionsOf(formId)) if (s.status === 'completed') count++;
    return count;
  }

  addSubmission(
    formId: number,
    status: Submission['status'],
    answers: Answers,
    completionTime: number | null,
    now: number,
    meta?: Submission['meta'],
  ): Submission {
    const submission: Submission = {
      id: this.#nextSubmissionId++,
      formId,
      status,
      answers,
      completionTime,
      createdAt: now,
      publicId: randomUUID(),
      ...(meta ? { meta } : {}),
    };
    const { rows, texts } = this.#submissions.get(formId)!;
    // Newest first: the new one goes before the first that is not newer than it (usually index 0).
    let index = 0;
    while (index < rows.length && newestFirst(rows[index]!, submission) < 0) index++;
    rows.splice(index, 0, submission);
    if (texts.length > index) texts.splice(index, 0, undefined);
    return submission;
  }

  /** Gives the submission its new answers, completion time and status, at once (its search text is dropped). */
  updateSubmission(submission: Submission, state: SubmissionState): void {
    Object.assign(submission, state);
    const list = this.#submissions.get(submission.formId);
    const index = list ? list.rows.indexOf(submission) : -1;
    if (index >= 0) list!.texts[index] = undefined;
  }

  /** Deletes a submission for good (the service keeps no trace of it). */
  removeSubmission(submission: Submission): void {
    const list = this.#submissions.get(submission.formId);
    const index = list ? list.rows.indexOf(submission) : -1;
    if (index < 0) return;
    list!.rows.splice(index, 1);
    if (list!.texts.length > index) list!.texts.splice(index, 1);
  }

  integrationsOf(formId: number): Integration[] {
    return [...this.integrations.values()].filter((i) => i.formId === formId).sort((a, b) => a.id - b.id);
  }

  addIntegration(formId: number, fields: Pick<Integration, 'status' | 'data' | 'logic'>, now: number): Integration {
    const integration: Integration = {
      id: this.#nextIntegrationId++,
      formId,
      ...fields,
      createdAt: now,
      updatedAt: now,
    };
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

  /** Deletes every event recorded before `cutoff` (unix ms), as the service's daily clean-up does. */
  forgetEventsBefore(cutoff: number): void {
    for (const [id, list] of this.events)
      this.events.set(
        id,
        list.filter((e) => e.createdAt >= cutoff),
      );
  }

  /** Events of an integration, newest first. */
  eventsOf(integrationId: number): WebhookEventRecord[] {
    return [...(this.events.get(integrationId) ?? [])].sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
  }
}

function newestFirst(a: Submission, b: Submission): number {
  return b.createdAt - a.createdAt || b.id - a.id;
}
