// Issue 22 bug 4: a 403 whose body says the feature belongs to another plan (`status: 'partial'`
// on a workspace without it) is `plan_required`, with a hint about the plan, not
// `missing_ability` with a hint to create a token with `forms-read`, which would not help.
import { afterEach, expect, it } from 'vitest';
import { createFormsClient } from '../src/index.js';
import { TOKEN } from './support/clock.js';
import { json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
afterEach(() => server?.close());

// What the sandbox (contract behaviour) answers, after the published contract.
const PRO_ONLY =
  'Filtering partial submissions is a Pro feature, and workspace 3 is on the free plan: list with status=completed or all, or upgrade the workspace.';

it('status partial refused as a Pro feature: kind plan_required, a plan hint, no token hint', async () => {
  server = await startServer((req, res) =>
    req.url.searchParams.get('status') === 'partial'
      ? json(res, 403, { message: PRO_ONLY })
      : json(res, 403, { message: 'This action is unauthorized.' }),
  );
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false });
  const err = await client.submissions.list(42, { status: 'partial' }).catch((e: unknown) => e);
  expect(err).toMatchObject({ kind: 'plan_required', status: 403, body: { message: PRO_ONLY } });
  const message = (err as Error).message;
  expect(message).toMatch(/another plan/);
  expect(message).toMatch(/status: 'completed'/);
  expect(message).not.toMatch(/forms-read|create a token/);
});

it('a 403 that does not speak of a plan is still missing_ability, with the token hint', async () => {
  server = await startServer((_req, res) => json(res, 403, { message: 'This action is unauthorized.' }));
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false });
  const err = await client.submissions.list(42, { status: 'completed' }).catch((e: unknown) => e);
  expect(err).toMatchObject({ kind: 'missing_ability', status: 403 });
  expect((err as Error).message).toMatch(/create a token with the `forms-read` ability/);
});

it('a 403 carrying the plan fields of the service is plan_required with the tiers', async () => {
  server = await startServer((_req, res) =>
    json(res, 403, {
      message: 'Upgrade required.',
      feature: 'partial_submissions',
      required_tier: 'business',
      current_tier: 'pro',
    }),
  );
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false });
  const err = await client.submissions.list(42, { status: 'partial' }).catch((e: unknown) => e);
  expect(err).toMatchObject({ kind: 'plan_required' });
  expect((err as Error).message).toMatch(/`pro` plan, and the `partial_submissions` feature needs `business`/);
});
