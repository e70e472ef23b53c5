// Every write of the spec whose answer carries what it wrote is read back: its answer must agree
// with the read-back on every member it sent, and what it did not change (the members no request
// names, those sent back as they were) must read back as before. Derived from the spec, it catches
// defects no check was written for: an update that resets conditions it was sent unchanged, a
// store that cuts a long answer while the write answers it whole. Both faults are found by this
// check's name, on both sandboxes, over several seeds of the explorer at its default budget; the
// healthy sandboxes pass it on the same seeds.
import { describe, expect, it } from 'vitest';
import { writesUnderTest } from '../src/explore/read-after-write.js';
import { operationsOf } from '../src/operations.js';
import { loadSpec } from '../src/spec.js';
import { startSandboxTarget } from '../src/targets/sandbox.js';
import { replayExplorer } from './explore-replay.js';

const spec = loadSpec();
const NAME = "explore: a write's answer reads back, and what it did not change is kept";
/** The self-test proper runs each fault on 10 seeds (see the pull request); a few keep this file quick. */
const SEEDS = [1, 2, 3];

describe('the writes that are read back', () => {
  const units = writesUnderTest(spec.bundle as Record<string, any>, [...operationsOf(spec.bundle).values()]);
  const byWrite = Object.fromEntries(units.map((u) => [u.write.operationId, u]));

  it('are every write whose answer carries the resource, each with the read that gives it back', () => {
    expect(
      Object.fromEntries(units.map((u) => [u.write.operationId, `${u.answerAt} → ${u.read.operationId}`])),
    ).toEqual({
      createWorkspace: 'workspace → listWorkspaces',
      updateWorkspace: 'workspace → listWorkspaces',
      createForm: 'form → getForm',
      updateForm: 'form → getForm',
      updateFormSubmission: 'data → listFormSubmissions',
      createFormIntegration: 'form_integration → listFormIntegrations',
      updateFormIntegration: 'form_integration → listFormIntegrations',
    });
    // An invitation is answered, not the member the list holds: nothing to compare.
    expect(byWrite.addWorkspaceUser).toBeUndefined();
  });

  it('compare what the spec does not mark as the server’s, under the name the resource gives it', () => {
    const integration = byWrite.updateFormIntegration!;
    expect([...integration.serverMaintained]).toEqual(['updated_at']);
    expect(integration.unnamed).toEqual(['id', 'form_id', 'oauth_id', 'created_at']);
    expect(byWrite.updateWorkspace!.inRead.named.get('emoji')).toBe('icon');
    // A submission's answers are keys of its `data`, in the answer and in the list alike.
    expect(byWrite.updateFormSubmission!.inRead.map).toBe('data');
    expect(byWrite.updateFormSubmission!.inAnswer.map).toBe('data');
    expect(byWrite.updateForm!.serverMaintained).toEqual(
      new Set(['is_closed', 'max_number_of_submissions_reached', 'updated_at']),
    );
  });
});

const faults = [
  {
    fault: 'update-drops-logic',
    operationId: 'createFormIntegration',
    observed: /write-changed-what-it-kept: \/logic/,
  },
  {
    fault: 'write-answer-not-what-was-stored',
    operationId: 'updateFormSubmission',
    observed: /write-answer-differs-from-read-back: .*\(\d+ characters against 191/,
  },
] as const;

describe.each(['contract', 'observed'] as const)('on the %s sandbox', (behaviour) => {
  for (const { fault, operationId, observed } of faults)
    it(`finds ${fault} by this check's name, on every seed`, async () => {
      for (const seed of SEEDS) {
        const target = await startSandboxTarget({ behaviour, faults: [fault], proxyPass: false });
        try {
          const results = await replayExplorer(spec, target, seed, operationId);
          const found = results.find((r) => r.name === NAME && r.outcome === 'failed');
          console.log(`${behaviour} ${fault} seed ${seed}: ${found ? 'found' : 'NOT found'}`);
          expect(found?.reason, `seed ${seed}`).toMatch(observed);
          expect(found?.reason).toContain(`--seed ${seed}`);
        } finally {
          await target.stop();
        }
      }
    }, 300_000);

  it('finds nothing on the healthy sandbox with the same seeds', async () => {
    for (const seed of SEEDS) {
      const target = await startSandboxTarget({ behaviour, proxyPass: false });
      try {
        for (const operationId of ['createWorkspace', 'createForm', 'updateFormSubmission', 'createFormIntegration']) {
          const mine = (await replayExplorer(spec, target, seed, operationId)).filter((r) => r.name === NAME);
          expect(mine.length, operationId).toBe(1);
          expect(mine.map((r) => `${r.operationId} seed ${seed}: ${r.outcome} ${r.reason ?? ''}`)).toEqual([
            expect.stringMatching(/: (passed|known-drift) /),
          ]);
        }
      } finally {
        await target.stop();
      }
    }
  }, 300_000);
});
