// Text a tenant sends (bodies, JSON keys, links) reaches the terminal and CI logs only escaped: no
// ANSI sequence that clears the screen, no carriage return that rewrites a line, and no newline
// that forges one of the suite's own lines, such as its final verdict.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgainst, startHostileTenant, type CliRun, type HostileTenant } from './hostile-tenant.js';

const FORGED_TOTAL = 'Total: 999 passed, 0 failed, 0 known drift, 0 skipped, 0 info — OK';
const CLEAR_SCREEN = '\u001b[2J\u001b[H';
const INJECTION = `${CLEAR_SCREEN}\r\n${FORGED_TOTAL}\n\u009b31m\u202e`;

/** Characters a terminal obeys: C0 controls but newline, DEL, C1 controls, bidi overrides. */
const OBEYED = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('a tenant sending terminal control sequences', () => {
  let tenant: HostileTenant;
  let run: CliRun;

  beforeAll(async () => {
    tenant = await startHostileTenant((req, res) => {
      if (/\/submissions(\?|$)/.test(req.url ?? '')) {
        // In a key: it becomes part of a schema error's instancePath.
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ data: [{ id: 1, form_id: 2, data: { [INJECTION]: [true] } }], links: {}, meta: {} }));
      } else {
        res.writeHead(200, { 'content-type': `text/plain` }).end(`${INJECTION}${INJECTION}`);
      }
    });
    run = await runAgainst(tenant);
  }, 120_000);

  afterAll(async () => {
    await tenant?.close();
  });

  it('reported the tenant text (escaped)', () => {
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('\\x1b[2J');
  });

  it('prints no control character a terminal would obey', () => {
    expect(run.stdout).not.toMatch(OBEYED);
    expect(run.stderr).not.toMatch(OBEYED);
  });

  it('prints no line the tenant wrote: the only verdict is the suite’s own', () => {
    const verdicts = [...run.stdout.split('\n'), ...run.stderr.split('\n')].filter((line) =>
      line.trimStart().startsWith('Total:'),
    );
    expect(verdicts).toHaveLength(1);
    expect(verdicts[0]).toMatch(/— FAILED$/);
    expect(run.stdout.split('\n').at(-6)).toBe(verdicts[0]); // then a blank line and the four report paths
  });
});
