// A TypeScript user gets spec types from the helpers; wrong options must not compile.
import { createFormsClient, FormsApiError } from '@forms-api/client';
import type { Submission } from '@forms-api/types';

const client = createFormsClient({ baseUrl: 'https://api.example.com', token: '1|abc', timeoutMs: 10_000 });

export async function completed(formId: number): Promise<Submission[]> {
  const all: Submission[] = [];
  try {
    for await (const submission of client.submissions.iterate(formId, { status: 'completed' })) all.push(submission);
  } catch (error) {
    if (error instanceof FormsApiError && error.kind === 'missing_ability') return [];
    throw error;
  }
  return all;
}

// @ts-expect-error 'pending' is not a submission status filter
export const wrong = () => client.submissions.list(1, { status: 'pending' });
