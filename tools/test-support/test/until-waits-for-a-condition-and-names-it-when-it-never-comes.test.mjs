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

it('fails at once on a check that throws, unless told to ask again', async () => {
  const refused = () => {
    throw new Error('connection refused');
  };
  await expect(until('a server that refuses', refused, { timeoutMs: 60_000, everyMs: 1 })).rejects.toThrow(
    /^connection refused$/,
  );
  let asked = 0;
  const starting = () => {
    if (++asked < 3) throw new Error('connection refused');
    return 'up';
  };
  await expect(until('a server that starts', starting, { retryErrors: true, everyMs: 1 })).resolves.toBe('up');
  await expect(
    until('a server that never starts', refused, { retryErrors: true, timeoutMs: 20, everyMs: 1 }),
  ).rejects.toThrow('a server that never starts: not within 20 ms (last error: connection refused)');
});
