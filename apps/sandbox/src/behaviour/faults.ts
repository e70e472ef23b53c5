// The fault catalogue: deliberate contract violations, one behaviour each, for the contract suite's
// self-test (it proves the suite reports every one). Each names the operations whose checks must
// report it. The response rewrites work on any HTTP exchange, so the self-test's mutating proxy in
// front of a mock applies the very same functions.
import { OPERATIONS, type OperationId } from '@forms-api/types';
import { operationOf } from '../operations.js';
import type { Behaviour, ExchangeRequest, ExchangeResponse } from './behaviour.js';

export const SANDBOX_FAULTS = [
  'rename-field',
  'drop-required-field',
  'ignore-ability',
  'wrong-type',
  'unsorted',
  'ignore-filter',
  'overlapping-pages',
  'bad-signature',
  'reencoded-after-signing',
  'wrong-content-type',
  'undocumented-status',
  'missing-event',
  'server-error-on-unusual-query',
  'deleted-integration-answers',
  'reachable-through-another-form',
  'foreign-form-readable',
  'foreign-workspace-readable',
  'rows-of-a-sibling-form',
  'partial-only-when-asked',
  'server-error-on-invalid-body',
  'write-without-ability',
  'stale-list-after-update',
  'deleted-form-still-listed',
  'removed-member-still-reads',
  'list-meta-miscounts',
  'token-id-only',
  'new-form-lists-old-submissions',
  'access-cached-per-resource',
  'new-form-lists-old-integrations',
  'past-the-end-claims-the-last-page',
  'update-drops-logic',
  'write-answer-not-what-was-stored',
  'forms-oldest-first',
  'forms-pages-off-by-one',
] as const;
export type SandboxFault = (typeof SANDBOX_FAULTS)[number];

export interface Fault extends Behaviour {
  readonly name: SandboxFault;
  /** A failed check of one of these operations means a contract suite caught the fault. */
  readonly operations: readonly OperationId[];
  /** Generated cases (the contract suite's explorer) find it within their default budget; its self-test requires it. */
  readonly foundByExplorer?: true;
  /** The violation is a 500 answer: a request it changes sees exactly that server error, any other is a crash. */
  readonly serverError?: true;
}

/** True for a successful JSON answer of `operationId`. */
const answered = (operationId: OperationId, req: ExchangeRequest, res: ExchangeResponse) =>
  res.status === 200 &&
  operationOf(req.method, req.path) === operationId &&
  (res.headers['content-type'] ?? '').startsWith('application/json');

/** Parses the JSON body, lets `change` edit it, and writes it back. */
function editJson(res: ExchangeResponse, change: (body: any) => void): void {
  const body = JSON.parse(res.body);
  change(body);
  res.body = JSON.stringify(body);
}

/** The query of a request's path, edited in place. */
function editQuery(req: ExchangeRequest, change: (query: URLSearchParams) => void): void {
  const [pathname, search = ''] = req.path.split('?', 2) as [string, string?];
  const query = new URLSearchParams(search);
  change(query);
  req.path = query.size > 0 ? `${pathname}?${query}` : pathname;
}

const queryOf = (req: ExchangeRequest) => new URLSearchParams(req.path.split('?', 2)[1] ?? '');
const bearer = (req: ExchangeRequest) => /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim();
/** The path's segments without the query: `['open', 'forms', '11', 'submissions']`. */
const segments = (req: ExchangeRequest) => req.path.split('?', 1)[0]!.split('/').filter(Boolean);

/** A value of a list's query parameter that no ordinary client sends: not a small number, not a listed status, control characters, very long. */
function unusual(name: string, value: string): boolean {
  if (name === 'page' || name === 'per_page') return !/^[1-9]\d{0,2}$/.test(value);
  if (name === 'status') return !['completed', 'partial', 'all'].includes(value);
  return /[\u0000-\u001f\u007f]/.test(value) || value.length > 255;
}

/** `<host> <workspace> <user>` of each member a sandbox (by its host) claimed to remove but kept, for removed-member-still-reads. */
const keptMembers = new Set<string>();

/** The submission rows each sandbox (by its host) first listed, for the stale list fault. */
const firstListed = new Map<string, unknown>();

/** `<host> <form id>` of each form a sandbox (by its host) created during the run, for the new-form-lists-old-* faults. */
const createdForms = new Set<string>();

/** `<host> form <id or slug>` / `<host> workspace <id>` a member was let into, for access-cached-per-resource. */
const letIn = new Set<string>();
/** `<host> <integration>` of each integration a sandbox (by its host) updated, for update-drops-logic. */
const logicDropped = new Set<string>();

/** The width of a string column a non-strict database cuts longer text to (Laravel's utf8mb4 default). */
const STRING_COLUMN = 191;

const requestedPage = (req: ExchangeRequest) =>
  Number(new URLSearchParams(req.path.split('?', 2)[1] ?? '').get('page') ?? '1');

export const FAULT_CATALOGUE: { readonly [N in SandboxFault]: Fault } = {
  'rename-field': {
    name: 'rename-field',
    description: 'form summaries carry shareUrl instead of share_url',
    operations: ['listWorkspaceForms'],
    response(req, res) {
      if (!answered('listWorkspaceForms', req, res)) return;
      editJson(res, (body) => {
        for (const form of body.data) {
          form.shareUrl = form.share_url;
          delete form.share_url;
        }
      });
    },
  },
  'drop-required-field': {
    name: 'drop-required-field',
    description: 'submissions lose completion_time',
    operations: ['listFormSubmissions'],
    response(req, res) {
      if (answered('listFormSubmissions', req, res))
        editJson(res, (body) => body.data.forEach((s: Record<string, unknown>) => delete s.completion_time));
    },
  },
  'ignore-ability': {
    name: 'ignore-ability',
    description: 'listing submissions answers 200 to a token without forms-read',
    operations: ['listFormSubmissions'],
    // The sandbox is asked as if the caller's token held the operation's abilities.
    request(req, sandbox) {
      if (operationOf(req.method, req.path) !== 'listFormSubmissions') return;
      const token = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim();
      const stronger = token ? sandbox.tokenOfSameUserWith(token, OPERATIONS.listFormSubmissions.abilities) : undefined;
      if (stronger) req.headers.authorization = `Bearer ${stronger}`;
    },
  },
  'wrong-type': {
    name: 'wrong-type',
    description: 'a submission form_id is a string',
    operations: ['listFormSubmissions'],
    response(req, res) {
      if (answered('listFormSubmissions', req, res))
        editJson(res, (body) => body.data.forEach((s: { form_id: unknown }) => (s.form_id = String(s.form_id))));
    },
  },
  unsorted: {
    name: 'unsorted',
    foundByExplorer: true,
    description: 'each page of submissions is oldest first',
    operations: ['listFormSubmissions'],
    response(req, res) {
      if (answered('listFormSubmissions', req, res)) editJson(res, (body) => body.data.reverse());
    },
  },
  'ignore-filter': {
    name: 'ignore-filter',
    foundByExplorer: true,
    description: 'the status filter of the submission list is ignored',
    operations: ['listFormSubmissions'],
    request(req) {
      if (operationOf(req.method, req.path) === 'listFormSubmissions')
        editQuery(req, (query) => query.delete('status'));
    },
  },
  'overlapping-pages': {
    name: 'overlapping-pages',
    description: 'page N > 1 of the submission list repeats page N - 1',
    operations: ['listFormSubmissions'],
    request(req) {
      if (operationOf(req.method, req.path) !== 'listFormSubmissions') return;
      const page = requestedPage(req);
      if (Number.isInteger(page) && page > 1) editQuery(req, (query) => query.set('page', String(page - 1)));
    },
    // The page number still claims what was asked for: only the rows overlap.
    response(req, res) {
      if (answered('listFormSubmissions', req, res) && requestedPage(req) > 1)
        editJson(res, (body) => (body.meta.current_page = requestedPage(req)));
    },
  },
  'bad-signature': {
    name: 'bad-signature',
    description: 'webhooks carry a signature that does not match their body',
    operations: ['createFormAnswer'],
    delivery(delivery) {
      const signature = delivery.headers['x-webhook-signature'];
      if (signature)
        delivery.headers['x-webhook-signature'] = signature.replace(/.$/, (last) => (last === '0' ? '1' : '0'));
    },
  },
  'reencoded-after-signing': {
    name: 'reencoded-after-signing',
    description:
      "webhooks are signed over the service's bytes, then sent re-encoded with non-ASCII as \\u escapes (the same JSON, other bytes)",
    operations: ['createFormAnswer'],
    // A sender that re-serialises after signing, here as json_encode without JSON_UNESCAPED_UNICODE
    // would (each UTF-16 unit, so an emoji becomes its surrogate pair); non-ASCII only occurs in strings.
    delivery(delivery) {
      delivery.body = delivery.body.replace(
        /[\u0080-\uffff]/g,
        (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`,
      );
    },
  },
  'wrong-content-type': {
    name: 'wrong-content-type',
    description: 'JSON answers are labelled text/plain',
    operations: [
      'listWorkspaceForms',
      'getForm',
      'listFormSubmissions',
      'listFormIntegrations',
      'listIntegrationEvents',
    ],
    response(_req, res) {
      if ((res.headers['content-type'] ?? '').startsWith('application/json'))
        res.headers['content-type'] = 'text/plain; charset=utf-8';
    },
  },
  'undocumented-status': {
    name: 'undocumented-status',
    description: 'deleting an integration answers 204, a status the spec does not list',
    operations: ['deleteFormIntegration'],
    response(req, res) {
      if (res.status !== 200 || operationOf(req.method, req.path) !== 'deleteFormIntegration') return;
      res.status = 204;
      res.body = '';
      delete res.headers['content-type'];
    },
  },
  'missing-event': {
    name: 'missing-event',
    description: 'dispatches are missing from the events list',
    operations: ['createFormAnswer', 'listIntegrationEvents'],
    response(req, res) {
      if (answered('listIntegrationEvents', req, res)) res.body = '[]';
    },
  },
  // Deep faults: found only by generating cases (the contract suite's explorer), not by a check written for them.
  'server-error-on-unusual-query': {
    name: 'server-error-on-unusual-query',
    foundByExplorer: true,
    serverError: true,
    description: 'the lists answer 500 to an unusual value of any query parameter (page, per_page, search, status)',
    operations: ['listWorkspaceForms', 'listFormSubmissions'],
    response(req, res) {
      const operation = operationOf(req.method, req.path);
      if (operation !== 'listWorkspaceForms' && operation !== 'listFormSubmissions') return;
      if (![...queryOf(req)].some(([name, value]) => unusual(name, value))) return;
      res.status = 500;
      res.headers['content-type'] = 'application/json';
      res.body = JSON.stringify({ message: 'Server Error' });
    },
  },
  'deleted-integration-answers': {
    name: 'deleted-integration-answers',
    foundByExplorer: true,
    description: 'deleting an integration answers 200 but keeps it: it still answers its update and its events',
    // The explorer's links sequence (under createFormIntegration) finds it.
    operations: ['createFormIntegration', 'deleteFormIntegration', 'updateFormIntegration', 'listIntegrationEvents'],
    // The delete is sent to a path no route serves, and its 404 answered as a success.
    request(req) {
      if (operationOf(req.method, req.path) === 'deleteFormIntegration') req.path = `${req.path.split('?', 1)[0]}/kept`;
    },
    response(req, res) {
      if (operationOf(req.method, req.path) !== 'deleteFormIntegration' || res.status !== 404) return;
      res.status = 200;
      res.headers['content-type'] = 'application/json';
      res.body = JSON.stringify({ type: 'success', message: 'Form Integration was deleted.' });
    },
  },
  'reachable-through-another-form': {
    name: 'reachable-through-another-form',
    foundByExplorer: true,
    description: "a submission or an integration answers through another form's path (the parent is not checked)",
    operations: ['updateFormSubmission', 'listIntegrationEvents', 'updateFormIntegration', 'deleteFormIntegration'],
    request(req, sandbox) {
      const operation = operationOf(req.method, req.path);
      const parts = segments(req);
      const query = req.path.includes('?') ? `?${req.path.split('?', 2)[1]}` : '';
      if (operation === 'updateFormSubmission') {
        const form = sandbox.formOfSubmission(Number(parts[4]));
        if (form !== undefined) req.path = `/open/forms/${form}/submissions/${parts[4]}${query}`;
      } else if (
        operation === 'listIntegrationEvents' ||
        operation === 'updateFormIntegration' ||
        operation === 'deleteFormIntegration'
      ) {
        const form = sandbox.formOfIntegration(Number(parts[4]));
        if (form !== undefined) req.path = `/open/forms/${form}/${parts.slice(3).join('/')}${query}`;
      }
    },
  },
  'foreign-form-readable': {
    name: 'foreign-form-readable',
    foundByExplorer: true,
    description: "a form of a workspace the token's user is no member of answers as if it were theirs",
    operations: ['getForm', 'listFormSubmissions', 'listFormIntegrations'],
    request(req, sandbox) {
      const operation = operationOf(req.method, req.path);
      if (operation !== 'getForm' && operation !== 'listFormSubmissions' && operation !== 'listFormIntegrations')
        return;
      const token = bearer(req);
      const form = segments(req)[2];
      // A token the sandbox issued (an unknown one is still refused), of a user outside the form's workspace.
      if (!token || !form || !sandbox.tokenOfSameUserWith(token, []) || sandbox.reaches(token, form)) return;
      const member = sandbox.tokenReaching(form, OPERATIONS[operation].abilities.slice(0, 1));
      if (member) req.headers.authorization = `Bearer ${member}`;
    },
  },
  'foreign-workspace-readable': {
    name: 'foreign-workspace-readable',
    foundByExplorer: true,
    description: "a workspace the token's user is no member of lists its forms and members as if it were theirs",
    operations: ['listWorkspaceForms', 'listWorkspaceUsers'],
    request(req, sandbox) {
      const operation = operationOf(req.method, req.path);
      if (operation !== 'listWorkspaceForms' && operation !== 'listWorkspaceUsers') return;
      const token = bearer(req);
      const workspace = Number(segments(req)[2]);
      const user = token === undefined ? undefined : sandbox.userOf(token);
      // A token the sandbox issued (an unknown one is still refused), of a user outside the workspace.
      if (user === undefined || sandbox.roleIn(user, workspace) !== undefined) return;
      const member = sandbox.tokenInWorkspace(workspace, OPERATIONS[operation].abilities);
      if (member) req.headers.authorization = `Bearer ${member}`;
    },
  },
  'rows-of-a-sibling-form': {
    name: 'rows-of-a-sibling-form',
    description:
      "a form's submission list answers the submissions of another form of its workspace (a query that lost its form scope)",
    // Every answer of a list is checked: each row must name the parent its path names.
    operations: ['listFormSubmissions'],
    request(req, sandbox) {
      if (operationOf(req.method, req.path) !== 'listFormSubmissions') return;
      const parts = segments(req);
      const sibling = sandbox.siblingForm(parts[2]!);
      const query = req.path.includes('?') ? `?${req.path.split('?', 2)[1]}` : '';
      if (sibling !== undefined) req.path = `/open/forms/${sibling}/submissions${query}`;
    },
  },
  'partial-only-when-asked': {
    name: 'partial-only-when-asked',
    description:
      'the submission list reads any status but `partial` as `completed`: without a filter, or with `all`, partial submissions are left out',
    // The relation between the filters' counts finds it; every row still has the status asked for.
    operations: ['listFormSubmissions'],
    request(req) {
      if (operationOf(req.method, req.path) === 'listFormSubmissions')
        editQuery(req, (query) => {
          if (query.get('status') !== 'partial') query.set('status', 'completed');
        });
    },
  },
  'server-error-on-invalid-body': {
    name: 'server-error-on-invalid-body',
    foundByExplorer: true,
    serverError: true,
    description:
      'the writes answer 500 where a body is refused as invalid (422): updating a submission, creating or updating an integration',
    // The explorer's forbidden request bodies (under updateFormSubmission) find it.
    operations: ['updateFormSubmission', 'createFormIntegration', 'updateFormIntegration'],
    response(req, res) {
      const operation = operationOf(req.method, req.path);
      if (res.status !== 422) return;
      if (
        operation !== 'updateFormSubmission' &&
        operation !== 'createFormIntegration' &&
        operation !== 'updateFormIntegration'
      )
        return;
      res.status = 500;
      res.headers['content-type'] = 'application/json';
      res.body = JSON.stringify({ message: 'Server Error' });
    },
  },
  'write-without-ability': {
    name: 'write-without-ability',
    foundByExplorer: true,
    description:
      'creating, updating and deleting integrations answer a token without manage-integrations as if it held it',
    // The explorer's writes without the right (under updateFormSubmission) find it.
    operations: ['updateFormSubmission', 'createFormIntegration', 'updateFormIntegration', 'deleteFormIntegration'],
    request(req, sandbox) {
      const operation = operationOf(req.method, req.path);
      if (
        operation !== 'createFormIntegration' &&
        operation !== 'updateFormIntegration' &&
        operation !== 'deleteFormIntegration'
      )
        return;
      const token = bearer(req);
      const stronger = token ? sandbox.tokenOfSameUserWith(token, OPERATIONS[operation].abilities) : undefined;
      if (stronger) req.headers.authorization = `Bearer ${stronger}`;
    },
  },
  'stale-list-after-update': {
    name: 'stale-list-after-update',
    foundByExplorer: true,
    description:
      'the submission list shows each submission as it was first listed (a stale cache): an update answers 200 but never reads back',
    // The explorer's updated submission that reads back (under updateFormSubmission) finds it.
    operations: ['updateFormSubmission', 'listFormSubmissions'],
    response(req, res) {
      if (!answered('listFormSubmissions', req, res)) return;
      editJson(res, (body) => {
        body.data = body.data.map((row: { id: number }) => {
          const key = `${req.headers.host ?? ''} ${row.id}`;
          if (!firstListed.has(key)) firstListed.set(key, row);
          return firstListed.get(key);
        });
      });
    },
  },
  'deleted-form-still-listed': {
    name: 'deleted-form-still-listed',
    description:
      'deleting a form answers 200 but keeps it: it stays in listWorkspaceForms and listAllForms, and getForm still answers it',
    // The suite's read-back after a removal (derived from the paths of deleteForm) finds it.
    operations: ['deleteForm'],
    // A delete the sandbox would carry out (a member's token holding forms-write) is sent as a read
    // of the same form instead, and that 200 answered as the deletion's.
    request(req, sandbox) {
      if (operationOf(req.method, req.path) !== 'deleteForm') return;
      const token = bearer(req);
      const form = segments(req)[2];
      if (!token || !form || !sandbox.reaches(token, form)) return;
      if (!sandbox.tokenHolds(token, OPERATIONS.deleteForm.abilities)) return;
      req.method = 'GET';
    },
    response(req, res) {
      if (operationOf(req.method, req.path) !== 'deleteForm' || res.status !== 200) return;
      res.headers['content-type'] = 'application/json';
      res.body = JSON.stringify({ type: 'success', message: 'Form was deleted.' });
    },
  },
  'removed-member-still-reads': {
    name: 'removed-member-still-reads',
    description:
      "removing a member answers 200 and drops them from the member list, but keeps their membership: the removed user's token still lists the workspace's forms",
    // The removal suite's read-back with the removed member's token finds it.
    operations: ['removeWorkspaceUser'],
    // A removal the sandbox would carry out (an admin's token holding workspaces-write, a member
    // removed) is sent as a read of the member list instead, answered as the removal's.
    request(req, sandbox) {
      if (operationOf(req.method, req.path) === 'removeWorkspaceUser') {
        const [, , workspace, , user] = segments(req);
        const token = bearer(req);
        const caller = token ? sandbox.userOf(token) : undefined;
        if (!token || caller === undefined || !sandbox.tokenHolds(token, OPERATIONS.removeWorkspaceUser.abilities))
          return;
        if (sandbox.roleIn(caller, Number(workspace)) !== 'admin' || !sandbox.roleIn(Number(user), Number(workspace)))
          return;
        keptMembers.add(`${req.headers.host ?? ''} ${workspace} ${user}`);
        req.method = 'GET';
        req.path = `/open/workspaces/${workspace}/users`;
      }
    },
    response(req, res) {
      const operation = operationOf(req.method, req.path);
      const kept = (workspace: string | undefined, user: unknown) =>
        keptMembers.has(`${req.headers.host ?? ''} ${workspace} ${user}`);
      if (operation === 'removeWorkspaceUser' && res.status === 200) {
        res.headers['content-type'] = 'application/json';
        res.body = JSON.stringify({ type: 'success', message: 'User removed from workspace successfully.' });
      } else if (answered('listWorkspaceUsers', req, res)) {
        const workspace = segments(req)[2];
        editJson(res, (body) => {
          if (Array.isArray(body)) body.splice(0, body.length, ...body.filter((m) => !kept(workspace, m.id)));
        });
      }
    },
  },
  'list-meta-miscounts': {
    name: 'list-meta-miscounts',
    description: "the paginated lists count one row more in meta.total than there are (the page's rows stay right)",
    // The page invariants every answer of a paginated list is checked against find it.
    operations: ['listWorkspaceForms', 'listFormSubmissions'],
    response(req, res) {
      if (answered('listWorkspaceForms', req, res) || answered('listFormSubmissions', req, res))
        editJson(res, (body) => (body.meta.total += 1));
    },
  },
  'token-id-only': {
    name: 'token-id-only',
    foundByExplorer: true,
    description: "a token is known by its id alone: any secret after a real token's `id|` is accepted",
    // The explorer's forged token (the target's token id with another secret) finds it.
    operations: ['listWorkspaceForms', 'getForm'],
    request(req, sandbox) {
      const token = bearer(req);
      if (!token || sandbox.userOf(token) !== undefined || !token.includes('|')) return;
      const real = sandbox.tokenWithId(token.split('|', 1)[0]!);
      if (real) req.headers.authorization = `Bearer ${real}`;
    },
  },
  'new-form-lists-old-submissions': {
    name: 'new-form-lists-old-submissions',
    foundByExplorer: true,
    description:
      "a form created during the run lists submissions it never had: another form's, as if left behind by a deleted form whose id it reused",
    // The explorer's fresh-resource check finds it: a form it just made must list none.
    operations: ['listFormSubmissions'],
    request(req, sandbox) {
      if (operationOf(req.method, req.path) !== 'listFormSubmissions') return;
      const form = segments(req)[2]!;
      if (!createdForms.has(`${req.headers.host ?? ''} ${form}`)) return;
      const older = sandbox.siblingForm(form);
      const query = req.path.includes('?') ? `?${req.path.split('?', 2)[1]}` : '';
      if (older !== undefined) req.path = `/open/forms/${older}/submissions${query}`;
    },
    response(req, res) {
      if (answered('createForm', req, res)) {
        const id = JSON.parse(res.body)?.form?.id;
        if (id !== undefined) createdForms.add(`${req.headers.host ?? ''} ${String(id)}`);
      } else if (answered('listFormSubmissions', req, res)) {
        const form = segments(req)[2]!;
        // The rows name the new form: the ids are the same, only the rows are old.
        if (createdForms.has(`${req.headers.host ?? ''} ${form}`))
          editJson(res, (body) => body.data.forEach((s: { form_id: unknown }) => (s.form_id = Number(form))));
      }
    },
  },
  'access-cached-per-resource': {
    name: 'access-cached-per-resource',
    foundByExplorer: true,
    description:
      "access to a form or workspace is remembered by the resource alone: once a member was let in, any user's token reads it",
    // The explorer's other-user check finds it (the target's own token reads first); a foreign
    // form or workspace no member reads during the run is never let in, so its check does not.
    operations: [
      'listWorkspaceForms',
      'listWorkspaceUsers',
      'listWorkspaceInvites',
      'getForm',
      'listFormSubmissions',
      'listFormIntegrations',
      'listIntegrationEvents',
    ],
    request(req, sandbox) {
      const operation = operationOf(req.method, req.path);
      if (!operation || req.method !== 'GET' || OPERATIONS[operation].public) return;
      const token = bearer(req);
      const user = token === undefined ? undefined : sandbox.userOf(token);
      const [, kind, id] = segments(req);
      if (token === undefined || user === undefined || id === undefined) return;
      if (kind !== 'forms' && kind !== 'workspaces') return;
      const abilities = OPERATIONS[operation].abilities;
      const reaches = kind === 'forms' ? sandbox.reaches(token, id) : sandbox.roleIn(user, Number(id)) !== undefined;
      const key = `${req.headers.host ?? ''} ${kind} ${id}`;
      if (reaches) {
        if (abilities.some((a) => sandbox.tokenHolds(token, [a]))) letIn.add(key);
        return;
      }
      if (!letIn.has(key)) return;
      const member =
        kind === 'forms'
          ? sandbox.tokenReaching(id, abilities.slice(0, 1))
          : sandbox.tokenInWorkspace(Number(id), abilities.slice(0, 1));
      if (member) req.headers.authorization = `Bearer ${member}`;
    },
  },
  'new-form-lists-old-integrations': {
    name: 'new-form-lists-old-integrations',
    foundByExplorer: true,
    description:
      "a form created during the run lists another form's integrations as its own, as if left behind by a deleted form whose id it reused",
    // The explorer's fresh-resource check finds it: a form it just made must list none.
    operations: ['listFormIntegrations'],
    request(req, sandbox) {
      if (operationOf(req.method, req.path) !== 'listFormIntegrations') return;
      const form = segments(req)[2]!;
      if (!createdForms.has(`${req.headers.host ?? ''} ${form}`)) return;
      const older = sandbox.siblingFormWithIntegrations(form);
      if (older !== undefined) req.path = `/open/forms/${older}/integrations`;
    },
    response(req, res) {
      if (answered('createForm', req, res)) {
        const id = JSON.parse(res.body)?.form?.id;
        if (id !== undefined) createdForms.add(`${req.headers.host ?? ''} ${String(id)}`);
      } else if (answered('listFormIntegrations', req, res)) {
        const form = segments(req)[2]!;
        if (createdForms.has(`${req.headers.host ?? ''} ${form}`))
          editJson(res, (body) => body.forEach((i: { form_id: unknown }) => (i.form_id = Number(form))));
      }
    },
  },
  'past-the-end-claims-the-last-page': {
    name: 'past-the-end-claims-the-last-page',
    description:
      'a page asked for past the end of a paginated list answers with no rows but says it is the last page (current_page clamped)',
    // The check that reads every list at the bounds it reports asks for the page after the last;
    // the page invariants judge that answer against the page asked for.
    operations: ['listWorkspaceForms', 'listFormSubmissions'],
    response(req, res) {
      if (!answered('listWorkspaceForms', req, res) && !answered('listFormSubmissions', req, res)) return;
      editJson(res, (body) => {
        const { total, per_page: size, current_page: page } = body.meta;
        const last = Math.max(1, Math.ceil(total / size));
        if (body.data.length === 0 && page > last) body.meta.current_page = last;
      });
    },
  },
  'update-drops-logic': {
    name: 'update-drops-logic',
    foundByExplorer: true,
    description:
      "updating an integration answers 200 but saves no `logic`: the conditions it was sent, even unchanged, are reset to none (the update's rules leave `logic` out)",
    // The explorer's read-after-write (under createFormIntegration) finds it: logic sent back as it was reads back changed.
    operations: ['createFormIntegration', 'updateFormIntegration'],
    response(req, res) {
      const key = (id: unknown) => `${req.headers.host ?? ''} ${String(id)}`;
      if (answered('updateFormIntegration', req, res))
        editJson(res, (body) => {
          logicDropped.add(key(body.form_integration?.id));
          body.form_integration.logic = [];
        });
      else if (answered('listFormIntegrations', req, res))
        editJson(res, (body) => {
          for (const row of Array.isArray(body) ? body : []) if (logicDropped.has(key(row.id))) row.logic = [];
        });
    },
  },
  'write-answer-not-what-was-stored': {
    name: 'write-answer-not-what-was-stored',
    foundByExplorer: true,
    description: `a text answer longer than ${STRING_COLUMN} characters is stored cut to ${STRING_COLUMN} (a narrow column of a non-strict database), while the update answers it whole, as it was sent`,
    // The explorer's read-after-write (under updateFormSubmission) finds it: the answer and the read-back differ.
    operations: ['updateFormSubmission', 'listFormSubmissions'],
    response(req, res) {
      if (!answered('listFormSubmissions', req, res)) return;
      editJson(res, (body) => {
        for (const row of body.data ?? [])
          for (const [key, value] of Object.entries(row.data ?? {}))
            if (typeof value === 'string' && value.length > STRING_COLUMN)
              row.data[key] = value.slice(0, STRING_COLUMN);
      });
    },
  },
  'forms-oldest-first': {
    name: 'forms-oldest-first',
    foundByExplorer: true,
    description: "a workspace's forms are listed by updated_at ascending, oldest first (an orderBy that lost its Desc)",
    // The order every answer of a list is held to (the spec's x-order) finds it, whichever check asked.
    operations: ['listWorkspaceForms'],
    response(req, res) {
      if (answered('listWorkspaceForms', req, res)) editJson(res, (body) => body.data.reverse());
    },
  },
  'forms-pages-off-by-one': {
    name: 'forms-pages-off-by-one',
    description:
      "a page after the first of a workspace's forms starts one row early (its offset is one short): it repeats the row before it and the list's last row is never shown, while its count, meta and links still add up",
    // The check that reads a list as one page and as smaller pages finds it; the page invariants cannot.
    operations: ['listWorkspaceForms'],
    request(req) {
      if (operationOf(req.method, req.path) !== 'listWorkspaceForms') return;
      const query = queryOf(req);
      const [page, size] = [Number(query.get('page') ?? '1'), Number(query.get('per_page') ?? '10')];
      if (!Number.isInteger(page) || !Number.isInteger(size) || page < 2 || size < 1 || page * size > 100) return;
      // Read the pages up to this one whole; the answer keeps the window one row early.
      editQuery(req, (q) => (q.set('page', '1'), q.set('per_page', String(page * size))));
    },
    response(req, res) {
      if (!answered('listWorkspaceForms', req, res)) return;
      const query = queryOf(req);
      const [page, size] = [Number(query.get('page') ?? '1'), Number(query.get('per_page') ?? '10')];
      if (!Number.isInteger(page) || !Number.isInteger(size) || page < 2 || size < 1 || page * size > 100) return;
      editJson(res, (body) => {
        const rows = body.data.slice((page - 1) * size - 1, page * size - 1);
        const from = rows.length > 0 ? (page - 1) * size + 1 : null;
        body.data = rows;
        Object.assign(body.meta, { current_page: page, per_page: size });
        if ('from' in body.meta) body.meta.from = from;
        if ('to' in body.meta) body.meta.to = from === null ? null : from + rows.length - 1;
        if ('last_page' in body.meta) body.meta.last_page = Math.max(1, Math.ceil(body.meta.total / size));
        // The links as the page asked for would have them (from the first link's address).
        const last = Math.max(1, Math.ceil(body.meta.total / size));
        const template = typeof body.links?.first === 'string' ? new URL(body.links.first) : undefined;
        const at = (n: number | null) => {
          if (n === null || !template) return null;
          template.searchParams.set('per_page', String(size));
          template.searchParams.set('page', String(n));
          return template.toString();
        };
        if (template)
          for (const [name, n] of Object.entries({
            first: 1,
            last,
            prev: page - 1,
            next: page < last ? page + 1 : null,
          }))
            body.links[name] = at(n);
      });
    },
  },
} satisfies { readonly [N in SandboxFault]: Fault & { readonly name: N } };
