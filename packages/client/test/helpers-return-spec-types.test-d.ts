// Type-level tests, compiled by `tsc -p test` (part of `pnpm test`): helpers return the spec's
// types, and each @ts-expect-error marks a misuse that must not compile.
import type {
  AnswerAccepted,
  Form,
  FormSaved,
  FormSummary,
  FormSummaryPage,
  IntegrationSaved,
  Submission,
  SubmissionPage,
  SuccessMessage,
  UpdatedSubmission,
  WebhookEvent,
  WebhookIntegration,
  operations,
} from '@forms-api/types';
import { createFormsClient, type FormsApiErrorKind } from '../src/index.js';

type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assert = <T extends true>(_: T) => {};

const client = createFormsClient({ baseUrl: 'https://api.example.com', token: 't' });

export async function returns() {
  assert<Equals<Awaited<ReturnType<typeof client.forms.list>>, FormSummaryPage>>(true);
  assert<Equals<Awaited<ReturnType<typeof client.forms.get>>, Form>>(true);
  assert<Equals<Awaited<ReturnType<typeof client.forms.updateKeeping>>, FormSaved>>(true);
  assert<Equals<Awaited<ReturnType<typeof client.submissions.list>>, SubmissionPage>>(true);
  assert<Equals<Awaited<ReturnType<typeof client.submissions.update>>, UpdatedSubmission>>(true);
  assert<Equals<Awaited<ReturnType<typeof client.integrations.list>>, WebhookIntegration[]>>(true);
  assert<Equals<Awaited<ReturnType<typeof client.integrations.create>>, IntegrationSaved>>(true);
  assert<Equals<Awaited<ReturnType<typeof client.integrations.update>>, IntegrationSaved>>(true);
  assert<Equals<Awaited<ReturnType<typeof client.integrations.delete>>, SuccessMessage>>(true);
  assert<Equals<Awaited<ReturnType<typeof client.integrations.events>>, WebhookEvent[]>>(true);
  assert<Equals<Awaited<ReturnType<typeof client.answers.submit>>, AnswerAccepted>>(true);
  assert<Equals<Awaited<ReturnType<typeof client.submissions.downloadFile>>, Response>>(true);
  // The helpers' types are the operations' 200 bodies.
  assert<Equals<SubmissionPage, operations['listFormSubmissions']['responses'][200]['content']['application/json']>>(
    true,
  );

  for await (const s of client.submissions.iterate(42, { status: 'all' })) assert<Equals<typeof s, Submission>>(true);
  for await (const f of client.forms.iterate(1)) assert<Equals<typeof f, FormSummary>>(true);
  for await (const p of client.submissions.pages(42)) assert<Equals<typeof p, SubmissionPage>>(true);

  // The raw surface is openapi-fetch's, typed by the spec.
  const { data } = await client.GET('/open/forms/{id}/submissions', {
    params: { path: { id: 42 }, query: { status: 'all' } },
  });
  const page: SubmissionPage | undefined = data;
  return page;
}

export function misuse() {
  // @ts-expect-error the option is timeoutMs
  createFormsClient({ baseUrl: 'https://x', token: 't', timeout: 5 });
  // @ts-expect-error token is required
  createFormsClient({ baseUrl: 'https://x' });
  // @ts-expect-error retry settings are named retries, not attempts
  createFormsClient({ baseUrl: 'https://x', token: 't', retry: { attempts: 3 } });
  // @ts-expect-error query options are camelCase (perPage)
  void client.submissions.list(42, { per_page: 10 });
  // @ts-expect-error status is completed | partial | all
  void client.submissions.list(42, { status: 'pending' });
  // @ts-expect-error form ids are numbers (only get/submit take slugs)
  void client.submissions.list('my-form');
  // @ts-expect-error per-call options are signal, timeoutMs, retry
  void client.forms.get(42, { timeout: 5 });
  // @ts-expect-error maxPages is a page option, not a query parameter
  void client.submissions.iterate(42, { maxPages: 3 });
  void client.integrations.create(42, {
    integration_id: 'webhook',
    // @ts-expect-error integration status is active | inactive
    status: 'paused',
    data: { webhook_url: 'https://e' },
  });
  // @ts-expect-error unknown path on the raw surface
  void client.GET('/open/nope');
  // @ts-expect-error downloadFile takes a file_url or { form, filename, expires, signature }
  void client.submissions.downloadFile({ form: 42, filename: 'x' });
  createFormsClient({
    baseUrl: 'https://x',
    token: 't',
    // @ts-expect-error onRetry receives one event object
    retry: { onRetry: (attempt: number, delay: number) => attempt < delay },
  });
  // @ts-expect-error the updates take { form, submission, answers }, not positional ids
  void client.submissions.update(42, 7, { a: 'b' });
  // @ts-expect-error the updates take { form, submission, changes }, not positional ids
  void client.submissions.updateKeeping(42, 7, { a: 'b' });
  // A listed submission is what `current` takes, as it comes.
  void (async () => {
    for await (const submission of client.submissions.iterate(42))
      await client.submissions.updateKeeping(
        { form: 42, submission: submission.id, changes: {} },
        { current: submission },
      );
  })();
  // @ts-expect-error `current` is the listed submission, not its answers alone
  void client.submissions.updateKeeping({ form: 42, submission: 7, changes: {} }, { current: { name: 'Jane' } });
  const input = { integration_id: 'webhook', status: 'active', data: { webhook_url: 'https://e' } } as const;
  // @ts-expect-error integrations.update takes { form, integration, input }, not positional ids
  void client.integrations.update(42, 3, input);
  // @ts-expect-error integrations.delete takes { form, integration }, not positional ids
  void client.integrations.delete(42, 3);
  // @ts-expect-error integrations.events takes { form, integration }, not positional ids
  void client.integrations.events(42, 3);
  // @ts-expect-error the ids are named form and integration (not formId, integrationId)
  void client.integrations.events({ formId: 42, integrationId: 3 });
  void client.integrations.update({ form: 42, integration: 3, input });
  // @ts-expect-error not an error kind
  const kind: FormsApiErrorKind = 'forbidden';
  return kind;
}
