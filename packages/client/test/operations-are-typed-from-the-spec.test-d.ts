// Type-level tests of `client.operations`, compiled by `tsc -p test` (part of `pnpm test`): each
// method's request and result are the spec's, and each @ts-expect-error marks a misuse that must
// not compile.
import type {
  AnswerAccepted,
  Form,
  FormSummaryPage,
  OperationId,
  SubmissionPage,
  UpdatedSubmission,
  WebhookIntegrationInput,
  operations,
} from '@forms-api/types';
import { createFormsClient, type OperationRequest, type OperationResult } from '../src/index.js';

type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assert = <T extends true>(_: T) => {};

const client = createFormsClient({ baseUrl: 'https://api.example.com', token: 't' });
const input: WebhookIntegrationInput = {
  integration_id: 'webhook',
  status: 'active',
  data: { webhook_url: 'https://hooks.example.com/in' },
};

export async function returns() {
  // Every operationId of the spec has a method, and nothing else.
  assert<Equals<keyof typeof client.operations, OperationId>>(true);

  assert<Equals<Awaited<ReturnType<typeof client.operations.getForm>>, Form>>(true);
  assert<Equals<Awaited<ReturnType<typeof client.operations.listWorkspaceForms>>, FormSummaryPage>>(true);
  assert<Equals<Awaited<ReturnType<typeof client.operations.listFormSubmissions>>, SubmissionPage>>(true);
  assert<Equals<Awaited<ReturnType<typeof client.operations.updateFormSubmission>>, UpdatedSubmission>>(true);
  assert<Equals<Awaited<ReturnType<typeof client.operations.createFormAnswer>>, AnswerAccepted>>(true);
  // A file is handed over unread.
  assert<Equals<Awaited<ReturnType<typeof client.operations.downloadSubmissionFile>>, Response>>(true);
  // The JSON results are the 200 bodies of the spec.
  assert<
    Equals<
      OperationResult<'listIntegrationEvents'>,
      operations['listIntegrationEvents']['responses'][200]['content']['application/json']
    >
  >(true);
  // The request's parts are the spec's.
  assert<Equals<OperationRequest<'getForm'>['path'], operations['getForm']['parameters']['path']>>(true);
  assert<
    Equals<
      NonNullable<OperationRequest<'createFormIntegration'>['body']>,
      operations['createFormIntegration']['requestBody']['content']['application/json']
    >
  >(true);

  const form = await client.operations.getForm({ path: { form: 'contact-us' } });
  const page = await client.operations.listFormSubmissions({ path: { id: 42 }, query: { status: 'completed' } });
  await client.operations.createFormIntegration({ path: { form: 42 }, body: input }, { timeoutMs: 5000 });
  await client.operations.downloadSubmissionFile({
    path: { form: 42, filename: 'c2Nhbg' },
    query: { expires: 1893456000, signature: 'ab' },
  });
  return [form.id, page.meta.total];
}

export async function misuse() {
  // @ts-expect-error the path parameter of getForm is `form`
  await client.operations.getForm({ path: { id: 42 } });
  // @ts-expect-error getForm needs its path
  await client.operations.getForm({});
  // @ts-expect-error getForm needs a request: its path
  await client.operations.getForm();
  // @ts-expect-error a workspace id is a number
  await client.operations.listWorkspaceForms({ path: { workspaceId: 'one' } });
  // @ts-expect-error updateFormIntegration takes both ids
  await client.operations.updateFormIntegration({ path: { form: 42 }, body: input });
  // @ts-expect-error createFormIntegration requires its body
  await client.operations.createFormIntegration({ path: { form: 42 } });
  // @ts-expect-error the body is a WebhookIntegrationInput, not a string
  await client.operations.createFormIntegration({ path: { form: 42 }, body: 'https://hooks.example.com' });
  // @ts-expect-error an integration's status is active or inactive
  await client.operations.createFormIntegration({ path: { form: 42 }, body: { ...input, status: 'on' } });
  // @ts-expect-error getForm takes no body
  await client.operations.getForm({ path: { form: 42 }, body: {} });
  // @ts-expect-error getForm takes no query
  await client.operations.getForm({ path: { form: 42 }, query: { page: 2 } });
  // @ts-expect-error the submission list's status is completed, partial or all
  await client.operations.listFormSubmissions({ path: { id: 42 }, query: { status: 'done' } });
  // @ts-expect-error the signed download requires its expires and signature
  await client.operations.downloadSubmissionFile({ path: { form: 42, filename: 'c2Nhbg' } });
  // @ts-expect-error the second argument is the call's options
  await client.operations.getForm({ path: { form: 42 } }, { timeout: 5 });
  // @ts-expect-error there is no such operation
  await client.operations.getForms({ path: { form: 42 } });
}
