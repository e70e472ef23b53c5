// Every operation × every seeded token → the expected status, in one table; each JSON answer is
// also checked against the spec (documented status, valid body).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../src/index.js';
import { call, sandbox } from './support.js';

// The workspace tokens (editor, workspacesRead, workspacesWrite) are exercised by the workspace tests.
type TokenName =
  Exclude<keyof SandboxHandle['tokens'], 'editor' | 'workspacesRead' | 'workspacesWrite'> | 'missing' | 'unknown';
const TOKENS: TokenName[] = [
  'all',
  'read',
  'write',
  'integrations',
  'none',
  'withoutRead',
  'withoutWrite',
  'withoutIntegrations',
  'outsider',
  'readonly',
  'missing',
  'unknown',
];

interface Row {
  operationId: string;
  method: string;
  path: (ids: { integrationId: number; submissionId: number }) => string;
  body?: unknown;
  expected: Record<TokenName, number>;
}

const unauth = { missing: 401, unknown: 401 } as const;
const integrationBody = {
  integration_id: 'webhook',
  status: 'inactive',
  data: { webhook_url: 'https://hooks.example.com/x' },
};

const ROWS: Row[] = [
  {
    operationId: 'listWorkspaceForms',
    method: 'GET',
    path: () => '/open/workspaces/1/forms',
    expected: {
      all: 200,
      read: 200,
      write: 403,
      integrations: 403,
      none: 403,
      withoutRead: 403,
      withoutWrite: 200,
      withoutIntegrations: 200,
      outsider: 403,
      readonly: 200,
      ...unauth,
    },
  },
  {
    operationId: 'getForm',
    method: 'GET',
    path: () => '/open/forms/11',
    expected: {
      all: 200,
      read: 200,
      write: 403,
      integrations: 200,
      none: 403,
      withoutRead: 200,
      withoutWrite: 200,
      withoutIntegrations: 200,
      outsider: 403,
      readonly: 200,
      ...unauth,
    },
  },
  {
    operationId: 'listFormSubmissions',
    method: 'GET',
    path: () => '/open/forms/11/submissions?per_page=5',
    expected: {
      all: 200,
      read: 200,
      write: 403,
      integrations: 403,
      none: 403,
      withoutRead: 403,
      withoutWrite: 200,
      withoutIntegrations: 200,
      outsider: 403,
      readonly: 200,
      ...unauth,
    },
  },
  {
    operationId: 'updateFormSubmission',
    method: 'PUT',
    path: (ids) => `/open/forms/11/submissions/${ids.submissionId}`,
    body: { completion_time: 42 },
    expected: {
      all: 200,
      read: 403,
      write: 200,
      integrations: 403,
      none: 403,
      withoutRead: 200,
      withoutWrite: 403,
      withoutIntegrations: 200,
      outsider: 403,
      readonly: 403,
      ...unauth,
    },
  },
  {
    operationId: 'listFormIntegrations',
    method: 'GET',
    path: () => '/open/forms/11/integrations',
    expected: {
      all: 200,
      read: 403,
      write: 403,
      integrations: 200,
      none: 403,
      withoutRead: 200,
      withoutWrite: 200,
      withoutIntegrations: 403,
      outsider: 403,
      readonly: 403,
      ...unauth,
    },
  },
  {
    operationId: 'createFormIntegration',
    method: 'POST',
    path: () => '/open/forms/11/integrations',
    body: integrationBody,
    expected: {
      all: 200,
      read: 403,
      write: 403,
      integrations: 200,
      none: 403,
      withoutRead: 200,
      withoutWrite: 200,
      withoutIntegrations: 403,
      outsider: 403,
      readonly: 403,
      ...unauth,
    },
  },
  {
    operationId: 'updateFormIntegration',
    method: 'PUT',
    path: (ids) => `/open/forms/11/integrations/${ids.integrationId}`,
    body: integrationBody,
    expected: {
      all: 200,
      read: 403,
      write: 403,
      integrations: 200,
      none: 403,
      withoutRead: 200,
      withoutWrite: 200,
      withoutIntegrations: 403,
      outsider: 403,
      readonly: 403,
      ...unauth,
    },
  },
  {
    operationId: 'listIntegrationEvents',
    method: 'GET',
    path: (ids) => `/open/forms/11/integrations/${ids.integrationId}/events`,
    expected: {
      all: 200,
      read: 403,
      write: 403,
      integrations: 200,
      none: 403,
      withoutRead: 200,
      withoutWrite: 200,
      withoutIntegrations: 403,
      outsider: 403,
      readonly: 403,
      ...unauth,
    },
  },
  {
    operationId: 'deleteFormIntegration',
    method: 'DELETE',
    path: (ids) => `/open/forms/11/integrations/${ids.integrationId}`,
    expected: {
      all: 200,
      read: 403,
      write: 403,
      integrations: 200,
      none: 403,
      withoutRead: 200,
      withoutWrite: 200,
      withoutIntegrations: 403,
      outsider: 403,
      readonly: 403,
      ...unauth,
    },
  },
];

describe('ability matrix', () => {
  let sb: SandboxHandle;
  beforeAll(async () => {
    sb = await sandbox();
  });
  afterAll(() => sb.close());

  it('answers every operation × token as the contract says', async () => {
    const actual: string[] = [];
    const expected: string[] = [];
    for (const token of TOKENS) {
      sb.reset();
      const created = await call(sb.baseUrl, 'POST', '/open/forms/11/integrations', {
        token: sb.tokens.all,
        body: integrationBody,
      });
      const ids = { integrationId: created.body.form_integration.id as number, submissionId: 1200 };
      for (const row of ROWS) {
        const secret = token === 'missing' ? undefined : token === 'unknown' ? '999|nope' : sb.tokens[token]!;
        const result = await call(sb.baseUrl, row.method, row.path(ids), {
          ...(secret ? { token: secret } : {}),
          body: row.body,
          operationId: row.operationId,
        });
        actual.push(`${row.operationId} with ${token}: ${result.status}`);
        expected.push(`${row.operationId} with ${token}: ${row.expected[token]}`);
      }
    }
    expect(actual).toEqual(expected);
  });

  it('answers 404 for unknown workspaces, forms and integrations, before any 403', async () => {
    for (const [method, path, operationId] of [
      ['GET', '/open/workspaces/999/forms', 'listWorkspaceForms'],
      ['GET', '/open/forms/999/submissions', 'listFormSubmissions'],
      ['GET', '/open/forms/no-such-slug', 'getForm'],
      ['GET', '/open/forms/11/integrations/999/events', 'listIntegrationEvents'],
      ['DELETE', '/open/forms/11/integrations/999', 'deleteFormIntegration'],
    ] as const) {
      expect((await call(sb.baseUrl, method, path, { token: sb.tokens.all, operationId })).status, path).toBe(404);
    }
    expect((await call(sb.baseUrl, 'GET', '/open/forms/999/submissions', { token: sb.tokens.none })).status).toBe(404);
  });
});

describe('tenant isolation', () => {
  let sb: SandboxHandle;
  beforeAll(async () => {
    sb = await sandbox();
  });
  afterAll(() => sb.close());

  it('shows nothing of the Pro workspace to a member of the free one only', async () => {
    const outsider = sb.tokens.outsider;
    for (const path of [
      '/open/workspaces/1/forms',
      '/open/forms/11',
      '/open/forms/11/submissions',
      '/open/forms/12/integrations',
      '/open/forms/contact-us-a1b2c3',
    ]) {
      const result = await call(sb.baseUrl, 'GET', path, { token: outsider });
      expect(result.status, path).toBe(403);
      expect(result.text).not.toMatch(/Contact us|Customer survey/);
    }
    const own = await call(sb.baseUrl, 'GET', '/open/workspaces/2/forms', {
      token: outsider,
      operationId: 'listWorkspaceForms',
    });
    expect(own.body.data.map((f: { workspace_id: number }) => f.workspace_id)).toEqual([2]);
  });
});
