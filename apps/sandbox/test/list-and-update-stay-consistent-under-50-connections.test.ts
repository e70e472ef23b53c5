// Lists and updates over 50 concurrent connections (real HTTP, one keep-alive agent of 50 sockets):
// no torn read (a list never shows half of one update), no lost update (every connection's last
// acknowledged write survives), and pages stay whole and ordered while answers keep arriving.
// Update bodies arrive in two parts a few milliseconds apart, so updates overlap in the sandbox.
import { Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSeed, type SandboxHandle, type SeedFixture } from '../src/index.js';
import { rawRequest, sandbox } from './support.js';

const CONNECTIONS = 50;
const ROUNDS = 12;
const FORM_ID = 31;
const SUBMISSION_ID = 31_001;

/** The default seed plus a form with a pair of text fields per connection (a_i, b_i) and one submission. */
function seedWithPairs(): SeedFixture {
  const seed = defaultSeed({ submissionsPerForm: 50 });
  const pairs = Array.from({ length: CONNECTIONS }, (_, i) => [
    { id: `a-${i}`, name: `A ${i}`, type: 'text' },
    { id: `b-${i}`, name: `B ${i}`, type: 'text' },
  ]).flat();
  const form = { ...seed.forms[0]!, id: FORM_ID, slug: 'pairs-x1y2z3', title: 'Pairs', properties: pairs };
  const answers = Object.fromEntries(pairs.map((f) => [f.id, 'start']));
  return {
    ...seed,
    forms: [...seed.forms, form],
    submissions: [
      ...seed.submissions,
      {
        id: SUBMISSION_ID,
        formId: FORM_ID,
        status: 'completed',
        answers,
        completionTime: 1,
        createdAt: Date.UTC(2026, 0, 1),
        publicId: '00000000-0000-4000-a000-000000000031',
      },
    ],
  };
}

describe('50 concurrent connections', () => {
  let sb: SandboxHandle;
  let agent: Agent;
  beforeAll(async () => {
    sb = await sandbox({ seed: seedWithPairs() });
    agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  });
  afterAll(async () => {
    agent.destroy();
    await sb.close();
  });

  const send = async (method: string, path: string, body?: unknown) => {
    const response = await rawRequest(sb.baseUrl, method, path, {
      agent,
      headers: { authorization: `Bearer ${sb.tokens.all}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body), pauseMs: 5 } : {}),
    });
    expect(response.status, `${method} ${path}: ${response.text.slice(0, 200)}`).toBe(200);
    return JSON.parse(response.text);
  };

  it('shows no torn read and loses no update', async () => {
    const torn: string[] = [];
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async (_, c) => {
        for (let round = 1; round <= ROUNDS; round++) {
          const value = `c${c}-r${round}`;
          await send('PUT', `/open/forms/${FORM_ID}/submissions/${SUBMISSION_ID}`, {
            [`a-${c}`]: value,
            [`b-${c}`]: value,
            completion_time: round,
          });
          const [listed] = (await send('GET', `/open/forms/${FORM_ID}/submissions?per_page=1`)).data;
          for (let i = 0; i < CONNECTIONS; i++)
            if (listed.data[`a-${i}`] !== listed.data[`b-${i}`])
              torn.push(`${listed.data[`a-${i}`]} / ${listed.data[`b-${i}`]}`);
          // This connection's own write is there (or a later one of its own).
          expect(listed.data[`a-${c}`]).toBe(value);
        }
      }),
    );
    expect(torn).toEqual([]);
    const [final] = (await send('GET', `/open/forms/${FORM_ID}/submissions?per_page=1`)).data;
    for (let c = 0; c < CONNECTIONS; c++)
      expect([final.data[`a-${c}`], final.data[`b-${c}`]]).toEqual([`c${c}-r${ROUNDS}`, `c${c}-r${ROUNDS}`]);
  });

  it('keeps every page whole and newest first while answers arrive', async () => {
    const before = (await send('GET', '/open/forms/12/submissions?per_page=1')).meta.total as number;
    const problems: string[] = [];
    const writers = Array.from({ length: CONNECTIONS / 2 }, async (_, w) => {
      for (let round = 0; round < ROUNDS; round++) {
        const answered = await rawRequest(sb.baseUrl, 'POST', '/forms/12/answer', {
          agent,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ is_partial: true, completion_time: w * 100 + round }),
          pauseMs: 5,
        });
        if (answered.status !== 200) problems.push(`answer ${answered.status}`);
      }
    });
    const readers = Array.from({ length: CONNECTIONS / 2 }, async (_, r) => {
      for (let round = 0; round < ROUNDS; round++) {
        const page = 1 + ((r + round) % 3);
        const body = await send('GET', `/open/forms/12/submissions?per_page=20&page=${page}`);
        const { total, from, to } = body.meta;
        const expected = Math.max(0, Math.min(20, total - (page - 1) * 20));
        if (
          body.data.length !== expected ||
          (expected > 0 && (from !== (page - 1) * 20 + 1 || to !== from + expected - 1))
        )
          problems.push(`page ${page}: ${body.data.length} rows, meta ${JSON.stringify({ total, from, to })}`);
        const created = body.data.map((s: { data: { created_at: string } }) => s.data.created_at);
        if (created.some((c: string, i: number) => i > 0 && created[i - 1] < c))
          problems.push(`page ${page} not newest first`);
      }
    });
    await Promise.all([...writers, ...readers]);
    expect(problems).toEqual([]);
    expect((await send('GET', '/open/forms/12/submissions?per_page=1')).meta.total).toBe(
      before + (CONNECTIONS / 2) * ROUNDS,
    );
  });
});
