// Every whole-number setting and argument of the client is read by one rule (arguments.ts
// `integerFrom`): an exactly representable integer in its range, or a typed error that names the
// setting and shows what it got. Before, five of them took any "integer" JavaScript has, so
// `completionTime: 1e21` was sent as `1e+21` and `retry.retries: 1e21` meant retrying for ever.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { createFormsClient, createRequestPacer } from '../src/index.js';
import { TOKEN } from './support/clock.js';

let sent = 0;
const client = createFormsClient({
  baseUrl: 'https://api.example.com',
  token: TOKEN,
  fetch: async () => {
    sent++;
    return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
  },
});

/** Each whole-number setting, its lowest value, its highest, and how to try a value on it. */
const SETTINGS: ReadonlyArray<{ option: string; min: number; max: number; attempt: (n: unknown) => unknown }> = [
  {
    option: 'completionTime',
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    attempt: (n) => client.submissions.update({ form: 1, submission: 2, answers: {} }, { completionTime: n as number }),
  },
  {
    option: 'completionTime',
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    attempt: (n) =>
      client.submissions.updateKeeping({ form: 1, submission: 2, changes: {} }, { completionTime: n as number }),
  },
  {
    option: 'maxPages',
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
    attempt: (n) => client.submissions.iterate(1, {}, { maxPages: n as number }),
  },
  {
    option: 'maxPages',
    min: 1,
    max: Number.MAX_SAFE_INTEGER,
    attempt: (n) =>
      client.submissions.updateKeeping({ form: 1, submission: 2, changes: {} }, { maxPages: n as number }),
  },
  { option: 'page', min: 1, max: Number.MAX_SAFE_INTEGER, attempt: (n) => client.forms.list(1, { page: n as number }) },
  { option: 'perPage', min: 1, max: 100, attempt: (n) => client.forms.list(1, { perPage: n as number }) },
  {
    option: 'retry.retries',
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    attempt: (n) => createFormsClient({ baseUrl: 'https://x.example', token: TOKEN, retry: { retries: n as number } }),
  },
  {
    option: 'pacing.max429Retries',
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    attempt: (n) => createRequestPacer({ requestsPerMinute: 100, max429Retries: n as number }),
  },
];

async function outcome(attempt: () => unknown): Promise<unknown> {
  try {
    const result = attempt();
    // An iterator checks its options when made; a promise when it settles.
    return result instanceof Promise ? await result.then(() => 'accepted') : 'accepted';
  } catch (error) {
    return error;
  }
}

it('every whole-number setting refuses what is not an exact integer in its range, naming it', async () => {
  const wrong = fc.oneof(
    fc.constantFrom(1e21, 2 ** 53, -1, 0.5, 1.5, Number.NaN, Infinity, -Infinity, '3', null, true),
    fc.double({ noInteger: true }),
  );
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...SETTINGS), wrong, async ({ option, min, max, attempt }, value) => {
      // 0 is in range for some settings: only a value outside every range is tried.
      fc.pre(!(typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max));
      const before = sent;
      const error = await outcome(() => attempt(value));
      expect(error).toMatchObject({ name: 'FormsApiError', kind: 'invalid_option', option });
      expect((error as Error).message).toMatch(/must be (a|an) .*integer.* \(got .+\)\.$/);
      expect(sent).toBe(before);
    }),
    { numRuns: 200 },
  );
});

it('the bounds themselves are taken', async () => {
  for (const { min, max, attempt } of SETTINGS) {
    for (const n of [min, max]) {
      const result = await outcome(() => attempt(n));
      expect(result, `${String(n)}`).not.toMatchObject({ kind: 'invalid_option' });
    }
  }
});
