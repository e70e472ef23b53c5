// Each fault switch changes the behaviour it names (so the contract self-test has something
// real to catch), and is off unless asked for.
import { describe, expect, it } from 'vitest';
import { SANDBOX_FAULTS, type SandboxFault } from '../src/index.js';
import { call, sandbox } from './support.js';

async function withFault<T>(fault: SandboxFault | undefined, run: (sb: Awaited<ReturnType<typeof sandbox>>) => Promise<T>): Promise<T> {
  const sb = await sandbox(fault ? { faults: [fault] } : {});
  try {
    return await run(sb);
  } finally {
    await sb.close();
  }
}

const probes: Record<string, (sb: Awaited<ReturnType<typeof sandbox>>) => Promise<unknown>> = {
  'rename-field': async (sb) => Object.keys((await call(sb.baseUrl, 'GET', '/open/workspaces/1/forms', { token: sb.tokens.all })).body.data[0]).includes('share_url'),
  'drop-required-field': async (sb) => 'completion_time' in (await call(sb.baseUrl, 'GET', '/open/forms/11/submissions?per_page=1', { token: sb.tokens.all })).body.data[0],
  'ignore-ability': async (sb) => (await call(sb.baseUrl, 'GET', '/open/forms/11/submissions', { token: sb.tokens.write })).status,
  'wrong-type': async (sb) => typeof (await call(sb.baseUrl, 'GET', '/open/forms/11/submissions?per_page=1', { token: sb.tokens.all })).body.data[0].form_id,
  unsorted: async (sb) => (await call(sb.baseUrl, 'GET', '/open/forms/11/submissions?per_page=1', { token: sb.tokens.all })).body.data[0].id,
  'ignore-filter': async (sb) => (await call(sb.baseUrl, 'GET', '/open/forms/11/submissions?status=partial&per_page=1', { token: sb.tokens.all })).body.meta.total,
  'overlapping-pages': async (sb) => (await call(sb.baseUrl, 'GET', '/open/forms/11/submissions?page=2&per_page=10', { token: sb.tokens.all })).body.data[0].id,
  'wrong-content-type': async (sb) => (await call(sb.baseUrl, 'GET', '/open/forms/11', { token: sb.tokens.all })).headers.get('content-type'),
  'undocumented-status': async (sb) => {
    const created = await call(sb.baseUrl, 'POST', '/open/forms/11/integrations', { token: sb.tokens.all, body: { integration_id: 'webhook', status: 'inactive', data: { webhook_url: 'https://hooks.example.com/x' } } });
    return (await call(sb.baseUrl, 'DELETE', `/open/forms/11/integrations/${created.body.form_integration.id}`, { token: sb.tokens.all })).status;
  },
};

describe('fault switches', () => {
  it('cover every fault the contract self-test expects', () => {
    expect([...SANDBOX_FAULTS].sort()).toEqual(['bad-signature', 'drop-required-field', 'ignore-ability', 'ignore-filter', 'missing-event', 'overlapping-pages', 'rename-field', 'undocumented-status', 'unsorted', 'wrong-content-type', 'wrong-type']);
  });

  it.each(Object.keys(probes))('%s changes what it names', async (fault) => {
    const healthy = await withFault(undefined, probes[fault]!);
    const broken = await withFault(fault as SandboxFault, probes[fault]!);
    expect(broken).not.toEqual(healthy);
  });

  it('refuses an unknown fault name', async () => {
    await expect(sandbox({ faults: ['no-such-fault' as SandboxFault] })).rejects.toThrow(/Unknown sandbox fault/);
  });
});
