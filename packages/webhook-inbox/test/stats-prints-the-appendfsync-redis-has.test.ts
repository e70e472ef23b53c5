// `inbox stats` reads how Redis persists and says it: the appendfsync value it read and what that
// means for acknowledged deliveries, not a sentence about what each value would mean.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from '@forms-api/redis-server';
import { runInboxCli } from '../src/cli.js';

const servers: Record<'always' | 'everysec', RedisServer | undefined> = { always: undefined, everysec: undefined };

beforeAll(async () => {
  servers.always = await startRedisServer({ appendonly: true, appendfsync: 'always' });
  servers.everysec = await startRedisServer({ appendonly: true, appendfsync: 'everysec' });
});

afterAll(async () => {
  await servers.always?.close();
  await servers.everysec?.close();
});

async function stats(server: RedisServer, ...args: string[]) {
  let out = '';
  expect(
    await runInboxCli(['stats', '--redis', server.url, ...args], {
      out: (line) => (out += `${line}\n`),
      err: () => {},
    }),
  ).toBe(0);
  return out;
}

describe('inbox stats', () => {
  it('prints the appendfsync value Redis has, and what it means', async () => {
    const always = await stats(servers.always!);
    expect(always).toMatch(
      /^persistence: AOF on, appendfsync always: Redis writes each acknowledged delivery to disk before it answers/m,
    );
    const everysec = await stats(servers.everysec!);
    expect(everysec).toMatch(
      /^persistence: AOF on, appendfsync everysec: a crash of Redis or its machine can lose the deliveries acknowledged in the last second/m,
    );
    expect(everysec).not.toMatch(/with appendfsync always, .*; with everysec/);
    expect(JSON.parse(await stats(servers.always!, '--json'))).toMatchObject({ aof: true, appendfsync: 'always' });
  });
});
