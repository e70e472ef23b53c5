// The guide "Never lose a submission" opens with the promise a reader may make to their own users
// and how late a submission may be: the bound it writes is made of the reconciler's and the inbox's
// defaults, so it must name them as the package has them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DEDUPE_WINDOW_MS,
  DEFAULT_GRACE_MS,
  DEFAULT_LOOKBACK_MS,
  DEFAULT_RECONCILE_INTERVAL_MS,
  DEFAULT_REQUEST_BUDGET,
} from '@forms-api/webhook-inbox';
import { REPO_ROOT } from '../src/documents.js';

const guide = readFileSync(join(REPO_ROOT, 'apps/docs/guides/05-never-lose-a-submission.md'), 'utf8');
const promise = guide
  .slice(guide.indexOf('\n## The promise, and its limits'), guide.indexOf('\n## Why a webhook alone'))
  .replace(/\s+/g, ' ');

describe('the promise at the top of "Never lose a submission"', () => {
  it('comes first, before the setup', () => {
    expect(guide.indexOf('\n## The promise, and its limits')).toBeGreaterThan(0);
    expect(guide.indexOf('\n## The promise, and its limits')).toBeLessThan(guide.indexOf('\n## 1. '));
  });

  it('bounds the lag by the grace, the interval and the walks, at the defaults of the package', () => {
    expect(promise).toContain('`lag` ≤ `graceMs` + `intervalMs` + the time the walks take');
    expect(promise).toContain(`\`graceMs\` (${DEFAULT_GRACE_MS / 1000} s by default)`);
    expect(promise).toContain(`\`intervalMs\` (${DEFAULT_RECONCILE_INTERVAL_MS / 1000} s)`);
    expect(DEFAULT_LOOKBACK_MS).toBe(60 * 60 * 1000);
    expect(promise).toContain('down to an hour (`lookbackMs`)');
    expect(DEFAULT_REQUEST_BUDGET.windowMs).toBe(60_000);
    expect(promise).toContain(`one budget of ${DEFAULT_REQUEST_BUDGET.requests} requests a minute (\`requestBudget\`)`);
    expect(promise).toContain(
      `within the deduplication window (${DEFAULT_DEDUPE_WINDOW_MS / (24 * 3600 * 1000)} days)`,
    );
  });

  it('counts what one budget covers: a walk is one request per 100 submissions of the lookback, plus one', () => {
    // Requests of one walk of a form that received `perHour` submissions in the last hour.
    const walk = (perHour: number) => Math.floor(perHour / 100) + 1;
    const budget = DEFAULT_REQUEST_BUDGET.requests;
    expect(promise).toContain(`${budget} forms that each get fewer than 100 submissions an hour (one request each)`);
    expect(walk(99) * budget).toBe(budget);
    expect(promise).toContain('one form that gets up to about 2,900 an hour');
    expect(walk(2_900)).toBeLessThanOrEqual(budget);
    expect(walk(3_000)).toBeGreaterThan(budget);
    // 10 forms of 1,000 an hour: the lookback plus the two minutes since the last walk.
    const round = 10 * walk(Math.round((1_000 * 62) / 60));
    expect(promise).toContain(`need about ${round} requests a round`);
    const minutes = round / budget;
    expect(promise).toContain('so `R` is almost 4 minutes and the lag up to about 9 minutes');
    expect(Math.ceil(minutes)).toBe(4);
    expect(Math.round((DEFAULT_GRACE_MS + DEFAULT_RECONCILE_INTERVAL_MS) / 60_000 + 2 * minutes)).toBe(9);
  });
});
