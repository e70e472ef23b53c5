// The faults the self-test injects and the sources that can inject them: a mutating proxy in front
// of Prism (now) and the sandbox's own fault switches (after merge). Each fault names the
// operations whose checks must report it.
import type { SpecArtifacts } from '../spec.js';
import { mockTarget, startPrismMock, type PrismServer } from '../targets/prism.js';
import { startSandboxTarget } from '../targets/sandbox.js';
import type { Target } from '../targets/target.js';
import { startMutatingProxy, type ProxyFault } from './mutating-proxy.js';

export interface FaultCase {
  readonly name: string;
  readonly description: string;
  /** A failed result of one of these operations means the suite caught it. */
  readonly operations: string[];
}

export interface FaultSource {
  readonly name: string;
  readonly faults: FaultCase[];
  /** A target with the fault applied (none: the healthy baseline). The caller stops it. */
  start(fault?: string): Promise<Target>;
  close(): Promise<void>;
}

const isPath = (req: { method: string; path: string }, method: string, pattern: RegExp) => req.method === method && pattern.test(req.path.split('?')[0]!);
const json = (body: string): any => JSON.parse(body);

const PROXY_FAULTS: Array<FaultCase & { apply: ProxyFault }> = [
  {
    name: 'rename-field',
    description: 'form summaries carry shareUrl instead of share_url',
    operations: ['listWorkspaceForms'],
    apply: {
      response(req, res) {
        if (!isPath(req, 'GET', /^\/open\/workspaces\/[^/]+\/forms$/) || res.status !== 200) return;
        const body = json(res.body);
        for (const form of body.data) {
          form.shareUrl = form.share_url;
          delete form.share_url;
        }
        res.body = JSON.stringify(body);
      },
    },
  },
  {
    name: 'drop-required-field',
    description: 'submissions lose completion_time',
    operations: ['listFormSubmissions'],
    apply: {
      response(req, res) {
        if (!isPath(req, 'GET', /^\/open\/forms\/[^/]+\/submissions$/) || res.status !== 200) return;
        const body = json(res.body);
        for (const s of body.data) delete s.completion_time;
        res.body = JSON.stringify(body);
      },
    },
  },
  {
    name: 'ignore-ability',
    description: 'listing submissions answers 200 where 403 is due',
    operations: ['listFormSubmissions'],
    apply: {
      // On the mock, "the token lacks the ability" is Prefer: code=403; the broken service ignores it.
      request(req) {
        if (isPath(req, 'GET', /^\/open\/forms\/[^/]+\/submissions$/) && req.headers.prefer === 'code=403') delete req.headers.prefer;
      },
    },
  },
  {
    name: 'wrong-type',
    description: 'a submission form_id is a string',
    operations: ['listFormSubmissions'],
    apply: {
      response(req, res) {
        if (!isPath(req, 'GET', /^\/open\/forms\/[^/]+\/submissions$/) || res.status !== 200) return;
        const body = json(res.body);
        for (const s of body.data) s.form_id = String(s.form_id);
        res.body = JSON.stringify(body);
      },
    },
  },
  {
    name: 'wrong-content-type',
    description: 'getForm answers text/plain',
    operations: ['getForm'],
    apply: {
      response(req, res) {
        if (isPath(req, 'GET', /^\/open\/forms\/[^/]+$/)) res.headers['content-type'] = 'text/plain';
      },
    },
  },
  {
    name: 'undocumented-status',
    description: 'deleting an integration answers 204',
    operations: ['deleteFormIntegration'],
    apply: {
      response(req, res) {
        if (isPath(req, 'DELETE', /^\/open\/forms\/[^/]+\/integrations\/[^/]+$/) && res.status === 200) {
          res.status = 204;
          res.body = '';
          delete res.headers['content-type'];
        }
      },
    },
  },
  {
    name: 'public-needs-token',
    description: 'the public answer endpoint demands a token (401)',
    operations: ['createFormAnswer'],
    apply: {
      response(req, res) {
        if (isPath(req, 'POST', /^\/forms\/[^/]+\/answer$/) && !req.headers.authorization) {
          res.status = 401;
          res.body = JSON.stringify({ message: 'Unauthenticated.' });
        }
      },
    },
  },
];

/** Faults applied by a mutating proxy in front of one shared Prism mock. */
export async function proxyFaultSource(spec: SpecArtifacts): Promise<FaultSource> {
  const prism: PrismServer = await startPrismMock(spec);
  return {
    name: 'prism + mutating proxy',
    faults: PROXY_FAULTS.map(({ apply: _apply, ...fault }) => fault),
    async start(fault) {
      const apply = fault === undefined ? undefined : PROXY_FAULTS.find((f) => f.name === fault)?.apply;
      if (fault !== undefined && !apply) throw new Error(`unknown proxy fault ${fault}`);
      const proxy = await startMutatingProxy(prism.baseUrl, apply);
      return mockTarget(`selftest:${fault ?? 'baseline'}`, proxy.baseUrl, () => proxy.close());
    },
    close: () => prism.stop(),
  };
}

/**
 * The sandbox's fault switches (SANDBOX_FAULTS). Enabled when @forms-api/sandbox is installed; the
 * operations are where the live suite reports each fault.
 */
export const SANDBOX_FAULT_CASES: FaultCase[] = [
  { name: 'rename-field', description: 'form summaries shareUrl', operations: ['listWorkspaceForms'] },
  { name: 'drop-required-field', description: 'submissions lose completion_time', operations: ['listFormSubmissions'] },
  { name: 'ignore-ability', description: 'list submissions 200 without forms-read', operations: ['listFormSubmissions'] },
  { name: 'wrong-type', description: 'submission form_id a string', operations: ['listFormSubmissions'] },
  { name: 'unsorted', description: 'oldest first', operations: ['listFormSubmissions'] },
  { name: 'ignore-filter', description: 'status filter ignored', operations: ['listFormSubmissions'] },
  { name: 'overlapping-pages', description: 'pages overlap', operations: ['listFormSubmissions'] },
  { name: 'bad-signature', description: 'webhooks signed with a wrong secret', operations: ['createFormAnswer'] },
  { name: 'wrong-content-type', description: 'text/plain', operations: ['listWorkspaceForms', 'getForm', 'listFormSubmissions', 'listFormIntegrations', 'listIntegrationEvents'] },
  { name: 'undocumented-status', description: 'delete integration 204', operations: ['deleteFormIntegration'] },
  { name: 'missing-event', description: 'dispatches not recorded', operations: ['createFormAnswer', 'listIntegrationEvents'] },
];

export function sandboxFaultSource(): FaultSource {
  return {
    name: 'sandbox fault switches',
    faults: SANDBOX_FAULT_CASES,
    start: (fault) => startSandboxTarget({ name: `selftest-sandbox:${fault ?? 'baseline'}`, ...(fault ? { faults: [fault] } : {}) }),
    close: async () => {},
  };
}
