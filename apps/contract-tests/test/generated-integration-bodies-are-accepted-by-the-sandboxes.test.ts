// Every integration body the explorer generates where it expects success (from the spec's schema,
// made safe) is one the service accepts: both sandboxes, which judge custom headers by the service's
// rule, create an integration with it and update one to it. A body the spec calls valid but the
// service refuses made random seeds of the suite fail (a header named "8", which PHP reads as an
// integer key and the service refuses as "Header names must be non-empty strings."); the seed
// that first drew it is replayed through the explorer, on the sandbox behaving like the service.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedBodyOf } from '../src/explore/request-bodies.js';
import { schemaArbitraries } from '../src/explore/schema-arbitrary.js';
import { operationsOf } from '../src/operations.js';
import { loadSpec } from '../src/spec.js';
import { startSandboxTarget } from '../src/targets/sandbox.js';
import type { Target } from '../src/targets/target.js';
import { replayExplorer } from './explore-replay.js';

const spec = loadSpec();
const arbitraries = schemaArbitraries(spec.bundle);
const operations = operationsOf(spec.bundle);
const create = operations.get('createFormIntegration')!;
const update = operations.get('updateFormIntegration')!;

async function send(target: Target, method: string, path: string, body?: unknown) {
  const response = await fetch(`${target.baseUrl}${path}`, {
    method,
    headers: {
      accept: 'application/json',
      authorization: `Bearer ${target.tokens.token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe.each(['contract', 'observed'] as const)('generated integration bodies on the %s sandbox', (behaviour) => {
  let target: Target;
  beforeAll(async () => {
    target = await startSandboxTarget({ behaviour, proxyPass: false });
  });
  afterAll(async () => {
    await target?.stop();
  });

  it('are each created, and an integration updated to each, with 200', async () => {
    const integrations = `/open/forms/${target.ids.formId}/integrations`;
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(
        generatedBodyOf(arbitraries, create),
        generatedBodyOf(arbitraries, update),
        async (first, second) => {
          cases++;
          const created = await send(target, 'POST', integrations, first);
          expect(created, JSON.stringify(first)).toMatchObject({ status: 200 });
          const id = created.body.form_integration.id;
          try {
            const updated = await send(target, 'PUT', `${integrations}/${id}`, second);
            expect(updated, JSON.stringify(second)).toMatchObject({ status: 200 });
          } finally {
            expect((await send(target, 'DELETE', `${integrations}/${id}`)).status).toBe(200);
          }
        },
      ),
      { numRuns: 300 },
    );
    expect(cases).toBeGreaterThanOrEqual(300);
  }, 120_000);

  it.runIf(behaviour === 'observed')(
    'the explorer finds nothing on its integration operations with the seed that drew a header named "8"',
    async () => {
      const results = await replayExplorer(spec, target, 1482156862, 'createFormIntegration');
      expect(results.map((r) => r.name)).toContain(
        'explore: create, follow its links, delete it, then each link answers 404',
      );
      expect(results.filter((r) => r.outcome === 'failed').map((r) => `${r.name}: ${r.reason}`)).toEqual([]);
    },
    120_000,
  );
});
