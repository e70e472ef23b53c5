// until resolves with the first truthy answer of its check, asked again until then, and fails
// naming what it waited for when the answer never comes.
import { expect, it } from 'vitest';
import { until } from '../index.mjs';

it('resolves with the first truthy answer, after asking as often as it took', async () => {
  let asked = 0;
  const answer = await until('the third question', async () => (++asked === 3 ? { asked } : null), { everyMs: 1 });
  expect(answer).toEqual({ asked: 3 });
});

it('names what it waited for when the condition never holds', async () => {
  await expect(until('a thing that never happens', () => false, { timeoutMs: 20, everyMs: 1 })).rejects.toThrow(
    'a thing that never happens: not within 20 ms',
  );
});
