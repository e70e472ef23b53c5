// Issue 26: an operation is described once, in the spec, and the rest follows. A copy of the
// bundle with one more operation (GET /open/forms/{form}/widgets) gets its conformance checks and
// its proxy pass with no edit in the suite, and they pass against Prism started on that copy.
import { afterAll, describe, expect, it } from 'vitest';
import { runContract } from '../src/run-contract.js';
import { sendOf, suitesFor } from '../src/suites/index.js';
import { proxySuitesFor } from '../src/suites/prism-proxy-pass.js';
import { syntheticSpec, WIDGETS } from './synthetic-operation.js';

const { spec, remove } = syntheticSpec();
afterAll(remove);

const checksOf = (operationId: string) =>
  suitesFor(spec.bundle)
    .find((s) => s.operationId === operationId)!
    .checks.map((c) => `${c.on ?? 'both'}: ${c.name}${c.writes ? ' (writes)' : ''}`);

describe('an operation added to the spec', () => {
  it('gets its documented statuses and Prism 401 on the mock, and happy path, 401, 403 and 404 on live targets', () => {
    expect(checksOf(WIDGETS)).toEqual([
      'mock: documented 200 (Prefer: code=200)',
      'mock: documented 401 (Prefer: code=401)',
      'mock: documented 403 (Prefer: code=403)',
      'mock: documented 404 (Prefer: code=404)',
      'mock: documented 429 (Prefer: code=429)',
      'mock: documented 500 (Prefer: code=500)',
      'mock: no token: Prism enforces the security requirement',
      'live: happy path: 200 and a valid body',
      'live: no token: 401',
      'live: token without the ability: 403',
      'live: unknown id: 404',
    ]);
  });

  it('is sent again through prism proxy --errors on live targets', () => {
    const proxied = proxySuitesFor(spec.bundle, sendOf).map((s) => s.operationId);
    expect(proxied).toContain(WIDGETS);
    // The rest as before: getForm stays out (its id-or-slug parameter), public and write operations too.
    expect(proxied).toEqual([
      'listWorkspaces',
      'listWorkspaceForms',
      'listWorkspaceUsers',
      'listWorkspaceInvites',
      'listAllForms',
      'listFormSubmissions',
      'listFormIntegrations',
      'listIntegrationEvents',
      WIDGETS,
    ]);
  });

  it('passes every derived mock check against Prism started on the copy', async () => {
    const { report } = await runContract({
      spec,
      targets: ['prism'],
      operations: [WIDGETS],
      write: false,
      strict: false,
      proxyPass: false,
      signal: new AbortController().signal,
      log: () => {},
    });
    const outcomes = report.results.map(
      (r) => `${r.operationId} ${r.name}: ${r.outcome}${r.reason ? ` ${r.reason}` : ''}`,
    );
    expect(outcomes).toEqual([
      `${WIDGETS} documented 200 (Prefer: code=200): passed`,
      `${WIDGETS} documented 401 (Prefer: code=401): passed`,
      `${WIDGETS} documented 403 (Prefer: code=403): passed`,
      `${WIDGETS} documented 404 (Prefer: code=404): passed`,
      `${WIDGETS} documented 429 (Prefer: code=429): passed`,
      `${WIDGETS} documented 500 (Prefer: code=500): passed`,
      `${WIDGETS} no token: Prism enforces the security requirement: passed`,
    ]);
  });
});
