// A new user's trial: --write against a service-like tenant, with FORMS_API_SUBMISSION_ID naming
// a submission that holds file and signature answers, left it without them ("restore ... failed:
// PUT answered 422 — remove it by hand"): an update that leaves file answers out cannot be undone,
// since the service refuses the old file names once they were replaced. Such checks now skip on
// such a submission, and it ends the run as it began.
import { afterEach, describe, expect, it } from 'vitest';
import { runLive, startSandboxCli, stopSandboxCli, tenantEnvironment } from './live-tenant.js';

afterEach(stopSandboxCli);

describe('--write on a submission with file answers', () => {
  it('leaves its answers as they were, and says why the checks that would lose them skip', async () => {
    const sandbox = await startSandboxCli(['--behaviour', 'observed']);
    const env = await tenantEnvironment(sandbox);
    const read = async (path: string) =>
      (await (
        await fetch(`${sandbox.baseUrl}${path}`, { headers: { authorization: `Bearer ${sandbox.tokens.all}` } })
      ).json()) as { data: Array<{ id: number; data: Record<string, unknown> }>; properties?: unknown };
    // A form of the workspace with a submission that holds a file answer.
    const forms = (await read(`/open/workspaces/${env.FORMS_API_WORKSPACE_ID}/forms?per_page=100`)).data;
    let chosen: { form: number; submission: { id: number; data: Record<string, unknown> } } | undefined;
    for (const form of forms) {
      const page = await read(`/open/forms/${form.id}/submissions?per_page=100&status=completed`);
      const withFiles = page.data.find((s) =>
        Object.values(s.data).some((v) => Array.isArray(v) && v.some((e) => (e as { file_name?: unknown })?.file_name)),
      );
      if (withFiles) chosen = { form: form.id, submission: withFiles };
      if (chosen) break;
    }
    expect(chosen, 'the seed has a submission with file answers').toBeDefined();
    const run = await runLive(
      { ...env, FORMS_API_FORM_ID: String(chosen!.form), FORMS_API_SUBMISSION_ID: String(chosen!.submission.id) },
      ['--no-proxy', '--operation', 'updateFormSubmission'],
    );
    const failed = run.report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.name}: ${r.reason}`);
    expect(failed).toEqual([]);
    expect(run.report.results.find((r) => r.name === 'only the changed answer: 200')?.reason).toMatch(
      /holds file answers .* would lose for good/,
    );
    const after = (await read(`/open/forms/${chosen!.form}/submissions?per_page=100&status=completed`)).data.find(
      (s) => s.id === chosen!.submission.id,
    );
    // The same answers; a file's signed link is signed anew on every read.
    const unsigned = (data: unknown) =>
      JSON.parse(JSON.stringify(data, (key, v) => (key === 'file_url' ? undefined : v)));
    expect(unsigned(after?.data)).toEqual(unsigned(chosen!.submission.data));
  }, 180_000);
});
