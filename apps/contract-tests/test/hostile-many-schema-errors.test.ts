// A response with hundreds of thousands of schema errors is judged in time linear in their number
// (matched to the drift ledger through an index), and reported as a summary: the first errors and
// "and N more", not every one of them, in the text and in contract-report.json.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgainst, startHostileTenant, type CliRun, type HostileTenant } from './hostile-tenant.js';

/** Each `true` in an answer list breaks three branches of an anyOf, plus the anyOf itself: four errors. */
const ITEMS = 50_000;
const SUBMISSION = {
  id: 5,
  form_id: 2,
  completion_time: 10,
  data: { f1: 'hello', status: 'completed', created_at: '2026-01-01 10:00:00', id: 'a1b2' },
};

describe('a tenant whose update response has 200,000 schema errors', () => {
  let tenant: HostileTenant;
  let run: CliRun;

  beforeAll(async () => {
    // One error the ledger explains (submission_id as a string: update-submission-response-shape),
    // so the matcher must also decide, for each anyOf error, whether explained errors sit under it.
    const huge = JSON.stringify({
      message: 'updated',
      data: {
        submission_id: 'a1b2',
        form_id: 2,
        submitted_at: '2026-01-01T10:00:00+00:00',
        data: { f1: Array.from({ length: ITEMS }, () => true) },
      },
    });
    tenant = await startHostileTenant((req, res) => {
      const json = (status: number, body: string) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(body);
      const path = (req.url ?? '').split('?')[0];
      if (req.method === 'PUT') return json(200, huge);
      if (path === '/open/forms/2/submissions')
        return json(200, JSON.stringify({ data: [SUBMISSION], links: {}, meta: { current_page: 1, last_page: 1 } }));
      if (path === '/open/forms/2')
        return json(200, JSON.stringify({ properties: [{ id: 'f1', type: 'text', name: 'F1' }] }));
      return json(404, '{"message":"Not found."}');
    });
    run = await runAgainst(tenant, ['--write', '--operation', 'updateFormSubmission'], {
      FORMS_API_SUBMISSION_ID: '5',
    });
  }, 180_000);

  afterAll(async () => {
    await tenant?.close();
  });

  it('finishes and fails the happy path with a summary of the errors', () => {
    expect(run.code).toBe(1);
    const happy = run.stdout.split('\n').find((line) => line.includes('updateFormSubmission › happy path'));
    expect(happy).toBeDefined();
    expect(run.stdout).toMatch(/; and (199,9\d\d|200,\d{3}) more\]/);
  });

  it('keeps a few errors and their count in contract-report.json, not every error', () => {
    const report = JSON.parse(run.json) as {
      results: Array<{
        name: string;
        failures: Array<{ kind: string; schemaErrors?: unknown[]; schemaErrorCount?: number }>;
      }>;
    };
    const schema = report.results
      .find((r) => r.name === 'happy path: 200 and a valid body')!
      .failures.find((f) => f.kind === 'schema')!;
    expect(schema.schemaErrorCount).toBeGreaterThan(4 * ITEMS);
    expect(schema.schemaErrors!.length).toBeLessThanOrEqual(20);
    expect(run.json.length).toBeLessThan(1_000_000);
  });
});
