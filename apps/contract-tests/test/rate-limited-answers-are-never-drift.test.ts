// Issue 18: a 429 is never contract drift. A tenant that refuses everything with 429 gets, per
// check, a "rate limited" failure with the wait it asked for (after the pacer waited out what it
// could), never "expected status 403, received 429", and never a ledger match.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rateLimitedFailure } from '../src/check-context.js';
import { parseCommandLine } from '../src/cli-args.js';
import { runAgainst, startHostileTenant, type CliRun, type HostileTenant } from './hostile-tenant.js';

interface Report {
  results: Array<{
    outcome: string;
    name: string;
    reason?: string;
    driftIds: string[];
    failures: Array<{ kind: string; message: string }>;
  }>;
  targets: Array<{
    name: string;
    traffic?: { requests: number; rateLimited?: number; gaveUp?: number; requestsPerMinute?: number };
  }>;
}

describe('a tenant answering 429 to everything', () => {
  let tenant: HostileTenant;
  let requests = 0;
  let paced: CliRun;
  let unpaced: CliRun;

  beforeAll(async () => {
    tenant = await startHostileTenant((_req, res) => {
      requests++;
      res
        .writeHead(429, {
          'content-type': 'application/json',
          'retry-after': '0',
          'x-ratelimit-limit': '100',
          'x-ratelimit-remaining': '0',
        })
        .end('{"message":"Too Many Attempts."}');
    });
    paced = await runAgainst(tenant, ['--operation', 'getForm', '--rate-limit', '6000']);
    unpaced = await runAgainst(tenant, ['--operation', 'getForm', '--rate-limit', 'off']);
  }, 120_000);

  afterAll(async () => {
    await tenant?.close();
  });

  for (const [mode, run] of [
    ['paced', () => paced],
    ['pacing off', () => unpaced],
  ] as const) {
    it(`${mode}: every failure is "rate limited", none a status, none known drift`, () => {
      const report = JSON.parse(run().json) as Report;
      const failures = report.results.flatMap((r) => r.failures);
      expect(failures.length).toBeGreaterThan(0);
      expect(failures.map((f) => f.kind).filter((k) => k !== 'rate-limited')).toEqual([]);
      expect(report.results.flatMap((r) => r.driftIds)).toEqual([]);
      expect(run().stdout).not.toMatch(/expected status \d+(?: or \d+)*, received 429/);
      expect(run().stdout).toContain('rate limited');
    });
  }

  it('paced: each request was sent again after its 429s, then reported with the wait asked for', () => {
    const report = JSON.parse(paced.json) as Report;
    const traffic = report.targets.find((t) => t.name === 'live')!.traffic!;
    expect(traffic.requestsPerMinute).toBe(6000);
    // Every send is counted, and each was refused: 1 send + 5 resends per request before the pacer gives up.
    expect(traffic.rateLimited).toBe(traffic.requests);
    expect(traffic.requests).toBe(traffic.gaveUp! * 6);
    expect(paced.stdout).toContain('still refused after 6 429(s) waited out, asking to wait 0 s');
    expect(paced.stdout).toMatch(
      /live: \d+ requests sent, paced at 6000\/min, waited .*429 met.*still refused past the bound/,
    );
  });

  it('pacing off: the 429 is reported at once, naming --rate-limit', () => {
    expect(unpaced.stdout).toContain('answered 429 asking to wait 0 s (pacing is off: --rate-limit)');
    expect(requests).toBeGreaterThan(0);
  });
});

describe("a 429's report", () => {
  // The service sends X-RateLimit-Reset (the Unix second its window ends) beside Retry-After; the
  // report reads the wait as the client does, so a reset alone still says how long to wait.
  it('names the wait a 429 asked for by Retry-After or, without it, by X-RateLimit-Reset', () => {
    const reportOf = (responseHeaders: Record<string, string>) =>
      rateLimitedFailure(
        { method: 'GET', url: 'http://127.0.0.1/open/forms/1', requestHeaders: {}, status: 429, responseHeaders },
        'getForm',
      );
    expect(reportOf({ 'retry-after': '12' })).toMatchObject({
      message: expect.stringContaining('asking to wait 12 s'),
      received: '429 (asks to wait 12 s)',
    });
    // The reset is a whole second: on a frozen clock, 30 s after now is 30 s to wait, not 29.something.
    vi.useFakeTimers({ now: Date.UTC(2025, 0, 1), toFake: ['Date'] });
    try {
      expect(reportOf({ 'x-ratelimit-reset': String(Date.UTC(2025, 0, 1) / 1000 + 30) }).message).toContain(
        'asking to wait 30 s',
      );
    } finally {
      vi.useRealTimers();
    }
    expect(reportOf({}).message).toContain('without saying how long to wait');
  });
});

describe('--rate-limit', () => {
  it('defaults to the service limit; takes a number per minute, 0 or off; refuses anything else', () => {
    expect(parseCommandLine([], {})).toMatchObject({ ok: true, value: { rateLimit: 100 } });
    expect(parseCommandLine(['--rate-limit', '30'], {})).toMatchObject({ ok: true, value: { rateLimit: 30 } });
    expect(parseCommandLine(['--rate-limit', '0'], {})).toMatchObject({ ok: true, value: { rateLimit: false } });
    expect(parseCommandLine(['--rate-limit', 'off'], {})).toMatchObject({ ok: true, value: { rateLimit: false } });
    for (const bad of ['-5', 'fast', '', '1e3']) {
      expect(parseCommandLine([`--rate-limit=${bad}`], {})).toMatchObject({
        ok: false,
        error: { kind: 'usage', message: expect.stringContaining('--rate-limit must be') },
      });
    }
  });
});
