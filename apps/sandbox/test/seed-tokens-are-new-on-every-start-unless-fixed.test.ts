// Issue 29, finding 5: the built-in seed's tokens were the same on every start (the README prints
// them), so anything that could reach the sandbox could use them. Each start now draws new
// secrets for the same token ids and names; `fixedTokens` keeps the README's, and a fixture's
// own tokens are always kept.
import { readFileSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { defaultSeed, type SandboxHandle } from '../src/index.js';
import { call, sandbox } from './support.js';

const started: SandboxHandle[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()));
});
const start = async (options: Parameters<typeof sandbox>[0] = {}) => {
  const s = await sandbox(options);
  started.push(s);
  return s;
};
const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

it('gives the built-in seed new token secrets on every start, kept across a reset', async () => {
  const [a, b] = [await start(), await start()];
  for (const name of Object.keys(a.tokens) as Array<keyof typeof a.tokens>) {
    expect(a.tokens[name]).not.toBe(b.tokens[name]);
    expect(a.tokens[name]).toMatch(/^\d+\|[A-Za-z0-9]{40}$/);
    expect(a.tokens[name]!.split('|')[0]).toBe(b.tokens[name]!.split('|')[0]);
    expect(README).not.toContain(a.tokens[name]!.split('|')[1]!);
  }
  const readme = README.match(/`all` \| `101\\\|([A-Za-z0-9]{40})`/)![1]!;
  expect((await call(a.baseUrl, 'GET', '/open/forms/11', { token: `101|${readme}` })).status).toBe(401);
  a.reset();
  expect((await call(a.baseUrl, 'GET', '/open/forms/11', { token: a.tokens.read })).status).toBe(200);
});

it('keeps the README tokens with fixedTokens, and a fixture its own', async () => {
  const fixed = await start({ fixedTokens: true });
  expect(README).toContain(`\`all\` | \`${fixed.tokens.all.replace('|', '\\|')}\``);
  expect((await call(fixed.baseUrl, 'GET', '/open/forms/11', { token: fixed.tokens.read })).status).toBe(200);
  const seed = defaultSeed({ submissionsPerForm: 2 });
  const own = await start({ seed });
  expect(own.tokens.all).toBe(seed.tokens.find((t) => t.name === 'all')!.token);
});
