import { createFormsClient } from '@forms-api/client';

// #region export-csv
// The export answers a CSV for at most 1,000 submissions and a background job, which a token
// cannot follow, for more: list the ids and export them 1,000 at a time. The pacer keeps to the
// export's own limit (10 a minute) apart from the other requests' 100.
const forms = createFormsClient({
  baseUrl: process.env.FORMS_API_BASE_URL!,
  token: process.env.FORMS_API_TOKEN!,
  pacing: { requestsPerMinute: 100 },
});
const formId = 11;
const form = await forms.forms.get(formId);
// Every field (layout blocks take no answer) and the submission time.
const columns: Record<string, boolean> = { created_at: true };
for (const field of form.properties) if (!field.type.startsWith('nf-')) columns[field.id] = true;

const exportBatch = async (submissionIds: number[], part: number) => {
  const answer = await forms.submissions.export(formId, { columns, submissionIds });
  // At most 1,000 ids: always the CSV. (A job would be for more, and a token cannot follow it.)
  if (answer.kind !== 'csv') throw new Error(`part ${part}: the service started job ${answer.job.job_id}`);
  // One CSV per batch, each with its header row: write it to a file.
  console.log(
    `part ${part}: ${submissionIds.length} submissions in ${answer.fileName}, ${answer.csv.length} characters`,
  );
};

// iterate() yields each id once, even when submissions arrive during the walk and shift the pages.
const batch: number[] = [];
let part = 0;
for await (const submission of forms.submissions.iterate(formId, { status: 'all' })) {
  batch.push(submission.id);
  if (batch.length === 1_000) await exportBatch(batch.splice(0), ++part);
}
if (batch.length > 0) await exportBatch(batch, ++part);
// #endregion
