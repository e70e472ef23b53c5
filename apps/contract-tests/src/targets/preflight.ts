// Before a live run: a few read-only requests that check the settings against the tenant (it is
// reachable and is the forms API, the token is accepted and holds the abilities a read can show,
// the ids exist, the submission is a completed one). A wrong setting stops the run with one message naming it, instead of dozens of
// failures reported as if the service had drifted. Never shows a token or what the tenant sent.
import { ContractTestsError } from '../errors.js';
import { createHttpClient, ExchangeRecorder } from './http-client.js';
import { envVariableOf } from './settings.js';
import { SUBMISSION_SEARCH_PAGES, type Target, type TargetIds } from './target.js';

/** Which setting the tenant refused, and how. */
export type PreflightProblem =
  | 'unreachable'
  | 'not_the_api'
  | 'token_rejected'
  | 'missing_ability'
  | 'not_found'
  | 'form_not_in_workspace'
  | 'submission_partial'
  | 'rate_limited';

/** `https://user:pass@host/x` -> `https://host/x`: a base URL may carry a password. */
function shownUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    url.username = '';
    url.password = '';
    return url.toString().replace(/\/$/, '');
  } catch {
    return '(an invalid URL)';
  }
}

const failure = (problem: PreflightProblem, message: string, context: Record<string, unknown> = {}) =>
  new ContractTestsError(
    'preflight_failed',
    `the live settings do not work against the tenant: ${message} (nothing was run; --no-preflight skips this check)`,
    { context: { problem, ...context } },
  );

interface Probe {
  /** The path (ids only: no secret is ever in it). */
  readonly path: string;
  /** What a 404 means, as the setting that names the missing thing. */
  readonly notFound: { readonly setting: keyof TargetIds; readonly what: string };
  /** What a 403 means. */
  readonly forbidden: string;
}

/**
 * Checks `target`'s settings against the tenant, through the target's own pacer (one budget: a
 * 429 is waited out as in the run). Resolves when the run can start; rejects with a
 * ContractTestsError of kind `preflight_failed` naming the setting to fix.
 */
export async function preflightLive(target: Target, signal?: AbortSignal): Promise<void> {
  const recorder = new ExchangeRecorder();
  const client = createHttpClient({
    baseUrl: target.baseUrl,
    token: target.tokens.token,
    recorder,
    ...(target.pacer ? { pacer: target.pacer } : {}),
    ...(target.traffic ? { traffic: target.traffic } : {}),
  });
  const base = target.baseUrl;
  // With --own-form the settings may name no form: the run makes its own.
  const { workspaceId, formId, submissionId, integrationId, freeFormId, captchaFormId } =
    target.ids as Partial<TargetIds> & Pick<TargetIds, 'workspaceId'>;
  const token = envVariableOf('token');
  const probes: Probe[] = [
    {
      path: `/open/workspaces/${workspaceId}/forms?per_page=1`,
      notFound: { setting: 'workspaceId', what: `workspace ${workspaceId}` },
      forbidden: `${token} may not list the forms of workspace ${workspaceId}: the token needs forms-read, and its user must be a member of the workspace (check ${envVariableOf('workspaceId')})`,
    },
    ...(formId === undefined ? [] : formProbes(formId, integrationId, token)),
    ...(
      [
        ['freeFormId', freeFormId],
        ['captchaFormId', captchaFormId],
      ] as const
    ).flatMap(([setting, id]) =>
      id === undefined
        ? []
        : [
            {
              path: `/open/forms/${id}`,
              notFound: { setting, what: `form ${id}` },
              forbidden: `${token} may not read form ${id} (${envVariableOf(setting)}): it must be in a workspace of the token's user`,
            },
          ],
    ),
  ];
  /** Sends one probe: its answer, or the setting to fix thrown, or ABORTED on Ctrl-C. */
  const ask = async (probe: Probe): Promise<Answer | typeof ABORTED> => {
    const request = `GET ${probe.path.replace(/\?.*/, '')}`;
    // The probe's path carries its query: it is sent as written.
    const get = client.GET as (path: string, init: object) => Promise<unknown>;
    const { answer, thrown } = await recorder.answer(target.pacer !== undefined, () =>
      get(probe.path, signal ? { signal } : {}),
    );
    if (signal?.aborted) return ABORTED;
    if (answer?.status === undefined) {
      // The client's network error keeps the cause's code (ECONNREFUSED), nothing else of it.
      const cause = (thrown as { cause?: { code?: unknown } } | undefined)?.cause?.code;
      throw failure(
        'unreachable',
        `cannot reach ${envVariableOf('baseUrl')} (${shownUrl(base)})${typeof cause === 'string' ? `: ${cause}` : ''}; check the URL and that this machine can reach it`,
        { setting: envVariableOf('baseUrl') },
      );
    }
    if (answer.rateLimited)
      throw failure(
        'rate_limited',
        `the tenant kept answering 429 to ${request} past the pacer's bound: another job spends ${token}'s budget; run again when it is done`,
      );
    const type = answer.responseHeaders?.['content-type'] ?? '';
    let body: unknown;
    let json = /json/i.test(type);
    // A body cut at the client's cap is judged by its type.
    if (json && answer.responseBodyLimit === undefined) {
      try {
        body = JSON.parse(answer.responseBody ?? '');
      } catch {
        json = false;
      }
    }
    const status = answer.status;
    const context = { status, request };
    if (status === 401)
      throw failure(
        'token_rejected',
        `the tenant answered 401 to ${request}: ${token} is wrong, expired or revoked (set the token alone, without "Bearer "), or ${envVariableOf('baseUrl')} (${shownUrl(base)}) is another service`,
        { ...context, setting: token },
      );
    // A web site or a proxy's page answers HTML; the forms API answers JSON to each of these.
    if (!json)
      throw failure(
        'not_the_api',
        `${envVariableOf('baseUrl')} (${shownUrl(base)}) does not answer as the forms API: ${request} answered ${status} ${type || 'without a content type'}; use the API's base URL, for example https://api.opnform.com`,
        { ...context, setting: envVariableOf('baseUrl') },
      );
    if (status === 403)
      throw failure('missing_ability', `the tenant answered 403 to ${request}: ${probe.forbidden}`, {
        ...context,
        setting: token,
      });
    if (status === 404)
      throw failure(
        'not_found',
        `the tenant answered 404 to ${request}: ${probe.notFound.what} does not exist, or its workspace is not the token's; check ${envVariableOf(probe.notFound.setting)}`,
        { ...context, setting: envVariableOf(probe.notFound.setting) },
      );
    return { status, body, context };
  };
  for (const probe of probes) {
    const answer = await ask(probe);
    if (answer === ABORTED) return;
    const { status, body, context } = answer;
    // The main form must be in the workspace named (the list checks run on that workspace).
    const formWorkspace = (body as { workspace_id?: unknown } | undefined)?.workspace_id;
    if (
      probe.path === `/open/forms/${formId}` &&
      status === 200 &&
      typeof formWorkspace === 'number' &&
      formWorkspace !== workspaceId
    )
      throw failure(
        'form_not_in_workspace',
        `form ${formId} is in workspace ${formWorkspace}, not in ${envVariableOf('workspaceId')} (${workspaceId}); name a form of that workspace, or its workspace`,
        { ...context, setting: envVariableOf('formId') },
      );
  }
  if (formId !== undefined && submissionId !== undefined)
    await expectCompletedSubmission(ask, formId, submissionId, token);
}

/** The probes of the configured form: it can be read, its integrations listed, and the integration named is one of them. */
function formProbes(formId: number, integrationId: number | undefined, token: string): Probe[] {
  return [
    {
      path: `/open/forms/${formId}`,
      notFound: { setting: 'formId', what: `form ${formId}` },
      forbidden: `${token} may not read form ${formId}: the token needs forms-read, and the form must be in a workspace of its user (check ${envVariableOf('formId')})`,
    },
    {
      path: `/open/forms/${formId}/integrations`,
      notFound: { setting: 'formId', what: `form ${formId}` },
      forbidden: `${token} may not list the integrations of form ${formId}: the token needs manage-integrations`,
    },
    ...(integrationId !== undefined
      ? [
          {
            path: `/open/forms/${formId}/integrations/${integrationId}/events`,
            notFound: { setting: 'integrationId' as const, what: `integration ${integrationId} of form ${formId}` },
            forbidden: `${token} may not list the events of integration ${integrationId}: the token needs manage-integrations`,
          },
        ]
      : []),
  ];
}

interface Answer {
  readonly status: number;
  /** The parsed JSON body (undefined when it was cut at the bound). */
  readonly body: unknown;
  readonly context: { readonly status: number; readonly request: string };
}

// Ctrl-C: the run stops before its first target anyway.
const ABORTED = Symbol('aborted');

/**
 * The suite updates FORMS_API_SUBMISSION_ID and sends its answers back whole, which the service
 * validates as a completed filling: a partial submission (required answers missing) gets a 422 on
 * every update, reported as if the service had drifted. Walks the pages the suite itself walks.
 */
async function expectCompletedSubmission(
  ask: (probe: Probe) => Promise<Answer | typeof ABORTED>,
  formId: number,
  submissionId: number,
  token: string,
): Promise<void> {
  const setting = envVariableOf('submissionId');
  for (let page = 1; page <= SUBMISSION_SEARCH_PAGES; page++) {
    const answer = await ask({
      path: `/open/forms/${formId}/submissions?page=${page}&per_page=100`,
      notFound: { setting: 'formId', what: `form ${formId}` },
      forbidden: `${token} may not list the submissions of form ${formId}: the token needs forms-read`,
    });
    // Another answer (a 500) is not the setting's fault: the run reports it.
    if (answer === ABORTED || answer.status !== 200) return;
    const body = answer.body as
      { data?: Array<{ id?: unknown; data?: { status?: unknown } }>; meta?: { last_page?: unknown } } | undefined;
    // A page cut at the bound, or not a list: nothing to judge by, so the run goes on.
    if (!Array.isArray(body?.data)) return;
    const found = body.data.find((submission) => submission.id === submissionId);
    if (found?.data?.status === 'partial')
      throw failure(
        'submission_partial',
        `submission ${submissionId} of form ${formId} is partial: the suite sends a submission's answers back whole, which the service refuses (422) for a partial one; set ${setting} to a completed submission of that form`,
        { setting, submissionId },
      );
    if (found) return;
    const lastPage = body.meta?.last_page;
    if (typeof lastPage !== 'number' || page >= lastPage)
      throw failure(
        'not_found',
        `form ${formId} has no submission ${submissionId}; set ${setting} to a completed submission of that form`,
        { setting, submissionId },
      );
  }
  throw failure(
    'not_found',
    `submission ${submissionId} is not among the newest ${SUBMISSION_SEARCH_PAGES * 100} submissions of form ${formId}, where the suite looks for it; set ${setting} to a recent completed submission of that form`,
    { setting, submissionId },
  );
}
