// The webhook round trip answers with text whose bytes a re-serialising sender would change
// (non-ASCII, `/`, escapes) and with a long answer, so a tenant that signs one serialisation and
// sends another fails it, as does one that signs only the start of a long body; both honest
// sandboxes (the contract's and the service's serialisation) pass it, and their payloads carry
// the answers as sent.
import type { SandboxBehaviour, SandboxFault } from '@forms-api/sandbox/faults';
import { OPERATIONS } from '@forms-api/types';
import { sign } from '@forms-api/webhook-verify';
import { describe, expect, it } from 'vitest';
import { runTarget } from '../src/runner.js';
import { loadSpec } from '../src/spec.js';
import { suitesFor } from '../src/suites/index.js';
import { startSandboxTarget } from '../src/targets/sandbox.js';
import type { Target } from '../src/targets/target.js';
import type { ReceivedWebhook } from '../src/webhooks/receiver.js';

const spec = loadSpec();
const roundTrip = suitesFor(spec.bundle)
  .filter((s) => s.operationId === 'createFormAnswer')
  .map((s) => ({ ...s, checks: s.checks.filter((c) => c.name === 'webhook round trip') }));

/** What the receiver hands the check, changed by `change` (given the webhook's path under the receiver). */
function withDeliveries(
  target: Target,
  change: (path: string, delivery: ReceivedWebhook) => ReceivedWebhook | Promise<ReceivedWebhook>,
): Target {
  const reach = target.webhooks!;
  return {
    ...target,
    webhooks: {
      ...reach,
      receiver: async () => {
        const shared = await reach.receiver();
        return {
          ...shared,
          at: (path: string) => {
            const own = shared.at(path);
            return {
              ...own,
              waitFor: async (...args) => {
                const delivery = await own.waitFor(...args);
                return delivery && change(path, delivery);
              },
            };
          },
        };
      },
    },
  };
}

/** A sender that decoded the payload's text twice (`\\u00e9` became é). */
const decodedTwice = (target: Target) =>
  withDeliveries(target, (_, d) => ({
    ...d,
    rawBody: Buffer.from(d.rawBody.toString('utf8').replaceAll('\\\\u00e9', 'é')),
  }));

/**
 * A sender that signs only what its first read of the body holds (16 KiB, a stream's chunk):
 * each delivery re-signed so, with the secret the tenant keeps for the webhook (its integration's
 * `data`, as the API answers it).
 */
const signsItsFirstChunk = (target: Target) =>
  withDeliveries(target, async (path, d) => {
    const listed = await fetch(
      `${target.baseUrl}${OPERATIONS.listFormIntegrations.path.replace('{form}', String(target.ids.formId))}`,
      { headers: { authorization: `Bearer ${target.tokens.token}` } },
    );
    const integrations = (await listed.json()) as Array<{ data?: { webhook_url?: string; webhook_secret?: string } }>;
    const secret = integrations.find((i) => i.data?.webhook_url?.endsWith(path))?.data?.webhook_secret;
    expect(secret).toBeDefined();
    const signature = await sign(secret!, d.rawBody.subarray(0, 16 * 1024));
    return { ...d, headers: { ...d.headers, 'x-webhook-signature': signature } };
  });

async function runRoundTrip(behaviour: SandboxBehaviour, faults: SandboxFault[] = [], change = (t: Target) => t) {
  const started = await startSandboxTarget({ behaviour, faults });
  const target = change(started);
  try {
    const results = await runTarget(target, {
      spec,
      suites: roundTrip,
      signal: new AbortController().signal,
      operations: ['createFormAnswer'],
    });
    // (A live target also judges the payload against the closed schema, under a name of its own.)
    const result = results.find((r) => r.name === 'webhook round trip');
    expect(result).toBeDefined();
    return result!;
  } finally {
    await started.stop();
  }
}

describe('the webhook round trip', () => {
  it.each(['contract', 'observed'] as const)('passes on the honest %s sandbox', async (behaviour) => {
    const result = await runRoundTrip(behaviour);
    // The observed sandbox answers its events list in the service's known shape (ledger); nothing else.
    expect(result.outcome, result.reason).toBe(behaviour === 'contract' ? 'passed' : 'known-drift');
    expect(result.reason ?? '').not.toMatch(/signature|webhook-answer-changed|webhook-round-trip/);
  });

  it('fails on a sender that signs the service bytes and sends them re-encoded', async () => {
    const result = await runRoundTrip('contract', ['reencoded-after-signing']);
    expect(result.outcome).toBe('failed');
    expect(result.reason).toMatch(/signature does not verify over the raw body/);
  });

  it('fails on a sender that signs only the first 16 KiB of a long body', async () => {
    const result = await runRoundTrip('observed', [], signsItsFirstChunk);
    expect(result.outcome).toBe('failed');
    expect(result.reason).toMatch(/signature does not verify over the raw body/);
  });

  it('fails when the payload does not carry an answer as sent', async () => {
    const result = await runRoundTrip('contract', [], decodedTwice);
    expect(result.outcome).toBe('failed');
    expect(result.reason).toMatch(/webhook-answer-changed: data\["[^"]+"\]\.value is not the answer as sent/);
  });
});
