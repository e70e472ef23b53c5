// Each fault switch changes the behaviour it names (so the contract self-test has something real
// to catch), is off unless asked for, and lives in the behaviour layer only: the ordinary code
// never names a fault.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { verify } from '@forms-api/webhook-verify';
import { describe, expect, it } from 'vitest';
import { FAULT_CATALOGUE, SANDBOX_FAULTS, type SandboxFault } from '../src/index.js';
import { call as callSandbox, fieldIds, receiver, sandbox, wholeForm } from './support.js';

type Sandbox = Awaited<ReturnType<typeof sandbox>>;

// Statuses of the calls the running probe made: a route that crashes with 500 changes the probe's
// value too, and must fail the test rather than pass as "the fault changed something".
let statuses: number[] = [];
const call: typeof callSandbox = async (...args) => {
  const result = await callSandbox(...args);
  statuses.push(result.status);
  return result;
};

/** Runs the probe of `probed` against a sandbox with `fault` (or none); its value and any 5xx seen. */
async function probe(probed: SandboxFault, fault: SandboxFault | undefined) {
  statuses = [];
  const value = await withFault(fault, probes[probed]);
  return { value, serverErrors: statuses.filter((status) => status >= 500) };
}

async function withFault<T>(fault: SandboxFault | undefined, run: (sb: Sandbox) => Promise<T>): Promise<T> {
  const sb = await sandbox(fault ? { faults: [fault] } : {});
  try {
    return await run(sb);
  } finally {
    await sb.close();
  }
}

/** Answers form 11 once with a signed webhook at a local receiver; what the receiver and the events list saw. */
async function webhookRoundTrip(sb: Sandbox) {
  const rx = await receiver(200);
  try {
    const secret = 'whsec_fault_probe_secret';
    const created = await call(sb.baseUrl, 'POST', '/open/forms/11/integrations', {
      token: sb.tokens.all,
      body: { integration_id: 'webhook', status: 'active', data: { webhook_url: rx.url, webhook_secret: secret } },
    });
    const ids = await fieldIds(sb, 11);
    await call(sb.baseUrl, 'POST', '/forms/11/answer', {
      // Non-ASCII: a sender that re-encodes the body after signing changes its bytes.
      body: { [ids.Name!]: 'Adé 漢字', [ids.Email!]: 'ada@example.com' },
    });
    const delivery = rx.deliveries[0]!;
    const events = (
      await call(sb.baseUrl, 'GET', `/open/forms/11/integrations/${created.body.form_integration.id}/events`, {
        token: sb.tokens.all,
      })
    ).body;
    return {
      verified: await verify(secret, delivery.raw, delivery.headers['x-webhook-signature'] as string),
      events: events.length,
    };
  } finally {
    await rx.close();
  }
}

const probes: Record<SandboxFault, (sb: Sandbox) => Promise<unknown>> = {
  'rename-field': async (sb) =>
    Object.keys(
      (await call(sb.baseUrl, 'GET', '/open/workspaces/1/forms', { token: sb.tokens.all })).body.data[0],
    ).includes('share_url'),
  'drop-required-field': async (sb) =>
    'completion_time' in
    (await call(sb.baseUrl, 'GET', '/open/forms/11/submissions?per_page=1', { token: sb.tokens.all })).body.data[0],
  'ignore-ability': async (sb) =>
    (await call(sb.baseUrl, 'GET', '/open/forms/11/submissions', { token: sb.tokens.write })).status,
  'wrong-type': async (sb) =>
    typeof (await call(sb.baseUrl, 'GET', '/open/forms/11/submissions?per_page=1', { token: sb.tokens.all })).body
      .data[0].form_id,
  unsorted: async (sb) =>
    (await call(sb.baseUrl, 'GET', '/open/forms/11/submissions?per_page=2', { token: sb.tokens.all })).body.data[0].id,
  'ignore-filter': async (sb) =>
    (await call(sb.baseUrl, 'GET', '/open/forms/11/submissions?status=partial&per_page=1', { token: sb.tokens.all }))
      .body.meta.total,
  'overlapping-pages': async (sb) =>
    (await call(sb.baseUrl, 'GET', '/open/forms/11/submissions?page=2&per_page=10', { token: sb.tokens.all })).body
      .data[0].id,
  'bad-signature': async (sb) => (await webhookRoundTrip(sb)).verified,
  'reencoded-after-signing': async (sb) => (await webhookRoundTrip(sb)).verified,
  'wrong-content-type': async (sb) =>
    (await call(sb.baseUrl, 'GET', '/open/forms/11', { token: sb.tokens.all })).headers.get('content-type'),
  'undocumented-status': async (sb) => {
    const created = await call(sb.baseUrl, 'POST', '/open/forms/11/integrations', {
      token: sb.tokens.all,
      body: { integration_id: 'webhook', status: 'inactive', data: { webhook_url: 'https://hooks.example.com/x' } },
    });
    return (
      await call(sb.baseUrl, 'DELETE', `/open/forms/11/integrations/${created.body.form_integration.id}`, {
        token: sb.tokens.all,
      })
    ).status;
  },
  'missing-event': async (sb) => (await webhookRoundTrip(sb)).events,
  'server-error-on-unusual-query': async (sb) =>
    (await call(sb.baseUrl, 'GET', '/open/forms/11/submissions?per_page=0', { token: sb.tokens.all })).status,
  'deleted-integration-answers': async (sb) => {
    const created = await call(sb.baseUrl, 'POST', '/open/forms/11/integrations', {
      token: sb.tokens.all,
      body: { integration_id: 'webhook', status: 'inactive', data: { webhook_url: 'https://example.com/hook' } },
    });
    const id = created.body.form_integration.id;
    const deleted = await call(sb.baseUrl, 'DELETE', `/open/forms/11/integrations/${id}`, { token: sb.tokens.all });
    return [
      deleted.status,
      (await call(sb.baseUrl, 'GET', `/open/forms/11/integrations/${id}/events`, { token: sb.tokens.all })).status,
    ];
  },
  'reachable-through-another-form': async (sb) => {
    const submission = (
      await call(sb.baseUrl, 'GET', '/open/forms/11/submissions?per_page=1', { token: sb.tokens.all })
    ).body.data[0];
    return (
      await call(sb.baseUrl, 'PUT', `/open/forms/12/submissions/${submission.id}`, {
        token: sb.tokens.all,
        body: { completion_time: 5 },
      })
    ).status;
  },
  'foreign-form-readable': async (sb) =>
    (await call(sb.baseUrl, 'GET', '/open/forms/11', { token: sb.tokens.outsider })).status,
  'foreign-workspace-readable': async (sb) =>
    (await call(sb.baseUrl, 'GET', '/open/workspaces/1/forms', { token: sb.tokens.outsider })).status,
  'rows-of-a-sibling-form': async (sb) =>
    (await call(sb.baseUrl, 'GET', '/open/forms/11/submissions?per_page=1', { token: sb.tokens.all })).body.data[0]
      .form_id,
  'partial-only-when-asked': async (sb) =>
    (await call(sb.baseUrl, 'GET', '/open/forms/11/submissions?per_page=1&status=all', { token: sb.tokens.all })).body
      .meta.total,
  'server-error-on-invalid-body': async (sb) =>
    (
      await call(sb.baseUrl, 'POST', '/open/forms/11/integrations', {
        token: sb.tokens.all,
        body: { integration_id: 'webhook', status: 'sometimes', data: { webhook_url: 'https://example.com/hook' } },
      })
    ).status,
  'write-without-ability': async (sb) =>
    (
      await call(sb.baseUrl, 'POST', '/open/forms/11/integrations', {
        token: sb.tokens.read,
        body: { integration_id: 'webhook', status: 'inactive', data: { webhook_url: 'https://example.com/hook' } },
      })
    ).status,
  'stale-list-after-update': async (sb) => {
    const listed = async () =>
      (await call(sb.baseUrl, 'GET', '/open/forms/11/submissions?per_page=1', { token: sb.tokens.all })).body.data[0];
    const first = await listed();
    const ids = await fieldIds(sb, 11);
    const answers = Object.fromEntries(Object.entries(first.data).filter(([key]) => Object.values(ids).includes(key)));
    await call(sb.baseUrl, 'PUT', `/open/forms/11/submissions/${first.id}`, {
      token: sb.tokens.all,
      body: { ...answers, [ids.Name!]: 'Stale Probe' },
    });
    return (await listed()).data[ids.Name!];
  },
  'deleted-form-still-listed': async (sb) => {
    const deleted = await call(sb.baseUrl, 'DELETE', '/open/forms/13', { token: sb.tokens.all });
    const listed = (await call(sb.baseUrl, 'GET', '/open/forms', { token: sb.tokens.all })).body.map(
      (f: { id: number }) => f.id,
    );
    const read = await call(sb.baseUrl, 'GET', '/open/forms/13', { token: sb.tokens.all });
    return { deleted: deleted.status, listed: listed.includes(13), read: read.status };
  },
  'removed-member-still-reads': async (sb) => {
    const removed = await call(sb.baseUrl, 'DELETE', '/open/workspaces/1/users/3/remove', { token: sb.tokens.all });
    const members = (await call(sb.baseUrl, 'GET', '/open/workspaces/1/users', { token: sb.tokens.all })).body.map(
      (m: { id: number }) => m.id,
    );
    const read = await call(sb.baseUrl, 'GET', '/open/workspaces/1/forms', { token: sb.tokens.readonly });
    return { removed: removed.status, listed: members.includes(3), read: read.status };
  },
  'list-meta-miscounts': async (sb) => {
    const page = (await call(sb.baseUrl, 'GET', '/open/forms/11/submissions?per_page=100', { token: sb.tokens.all }))
      .body;
    return page.meta.total - page.data.length;
  },
  'past-the-end-claims-the-last-page': async (sb) =>
    (await call(sb.baseUrl, 'GET', '/open/forms/11/submissions?page=999', { token: sb.tokens.all })).body.meta
      .current_page,
  'forms-oldest-first': async (sb) =>
    (await call(sb.baseUrl, 'GET', '/open/workspaces/1/forms', { token: sb.tokens.all })).body.data
      .map((f: { id: number }) => f.id)
      .join(','),
  'forms-pages-off-by-one': async (sb) =>
    (await call(sb.baseUrl, 'GET', '/open/workspaces/1/forms?per_page=2&page=2', { token: sb.tokens.all })).body.data
      .map((f: { id: number }) => f.id)
      .join(','),
  'token-id-only': async (sb) => {
    const forged = `${sb.tokens.all!.split('|', 1)[0]}|forgedSecret0123456789abcdefghijKLMNOPQRS`;
    return (await call(sb.baseUrl, 'GET', '/open/workspaces/1/forms', { token: forged })).status;
  },
  'new-form-lists-old-submissions': async (sb) => {
    const id = await newForm(sb);
    const listed = await call(sb.baseUrl, 'GET', `/open/forms/${id}/submissions`, { token: sb.tokens.all });
    return listed.body.meta.total;
  },
  'new-form-lists-old-integrations': async (sb) => {
    const id = await newForm(sb);
    return (await call(sb.baseUrl, 'GET', `/open/forms/${id}/integrations`, { token: sb.tokens.all })).body.length;
  },
  'access-cached-per-resource': async (sb) => {
    await call(sb.baseUrl, 'GET', '/open/forms/11', { token: sb.tokens.all });
    return (await call(sb.baseUrl, 'GET', '/open/forms/11', { token: sb.tokens.outsider })).status;
  },
  'update-drops-logic': async (sb) => {
    const logic = { operatorIdentifier: 'or', children: [] };
    const body = {
      integration_id: 'webhook',
      status: 'inactive',
      data: { webhook_url: 'https://example.com/hook' },
      logic,
    };
    const created = await call(sb.baseUrl, 'POST', '/open/forms/11/integrations', { token: sb.tokens.all, body });
    const id = created.body.form_integration.id;
    await call(sb.baseUrl, 'PUT', `/open/forms/11/integrations/${id}`, { token: sb.tokens.all, body });
    const listed = await call(sb.baseUrl, 'GET', '/open/forms/11/integrations', { token: sb.tokens.all });
    return listed.body.find((i: { id: number }) => i.id === id).logic;
  },
  'write-answer-not-what-was-stored': async (sb) => {
    const ids = await fieldIds(sb, 11);
    const long = 'x'.repeat(300);
    const answered = await call(sb.baseUrl, 'POST', '/forms/11/answer', {
      body: { [ids.Name!]: long, [ids.Email!]: 'long@example.com' },
    });
    const listed = await call(sb.baseUrl, 'GET', '/open/forms/11/submissions?per_page=100', { token: sb.tokens.all });
    const row = listed.body.data.find(
      (s: { data: Record<string, unknown> }) => s.data[ids.Email!] === 'long@example.com',
    );
    return [answered.status, row.data[ids.Name!].length];
  },
};

/** Creates a form in workspace 1 with the main token; its id. */
async function newForm(sb: Sandbox): Promise<number> {
  const created = await call(sb.baseUrl, 'POST', '/open/forms', {
    token: sb.tokens.all,
    body: { ...wholeForm('Fresh'), workspace_id: 1 },
  });
  return created.body.form.id;
}

describe('fault switches', () => {
  it('have one catalogue entry, under its own name, and one probe each', () => {
    expect(SANDBOX_FAULTS.length).toBeGreaterThan(0);
    expect(Object.keys(FAULT_CATALOGUE).sort()).toEqual([...SANDBOX_FAULTS].sort());
    expect(Object.keys(probes).sort()).toEqual([...SANDBOX_FAULTS].sort());
    for (const name of SANDBOX_FAULTS) expect(FAULT_CATALOGUE[name].name).toBe(name);
  });

  it.each(SANDBOX_FAULTS)('%s changes what it names, without crashing a route', async (fault) => {
    const healthy = await probe(fault, undefined);
    const broken = await probe(fault, fault);
    expect(healthy.serverErrors, 'the healthy sandbox answered 5xx').toEqual([]);
    // A fault whose violation is a 500 (the catalogue says which) shows exactly that; any other 5xx is a crash.
    expect(broken.serverErrors, `${fault} crashed a route`).toEqual(FAULT_CATALOGUE[fault].serverError ? [500] : []);
    expect(broken.value).not.toEqual(healthy.value);
  });

  it('refuses an unknown fault name', async () => {
    await expect(sandbox({ faults: ['no-such-fault' as SandboxFault] })).rejects.toMatchObject({
      kind: 'unknown_fault',
      message: expect.stringMatching(/Unknown sandbox fault/),
    });
  });

  it('are named nowhere in the ordinary code', () => {
    const src = fileURLToPath(new URL('../src/', import.meta.url));
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    // The behaviour layer, and the entry points that resolve fault names into it.
    const layer = (file: string) => file.startsWith('behaviour/') || file === 'index.ts' || file === 'cli.ts';
    const mentions = files
      .filter((f) => !layer(relative(src, join(src, f)).replaceAll('\\', '/')))
      .filter((f) => /\bfaults?\b/i.test(readFileSync(join(src, f), 'utf8')));
    expect(mentions).toEqual([]);
  });
});
