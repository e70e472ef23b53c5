// The faults the self-test injects and the sources that can inject them: a mutating proxy in front
// of Prism, and the sandbox's own fault switches. Both take their faults from the sandbox's one
// catalogue (FAULT_CATALOGUE); the proxy adds the two that only make sense on a mock. Each fault
// names the operations whose checks must report it.
import {
  FAULT_CATALOGUE,
  SANDBOX_FAULTS,
  operationOf,
  type Fault,
  type SandboxBehaviour,
} from '@forms-api/sandbox/faults';
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

const caseOf = (fault: Fault): FaultCase => ({
  name: fault.name,
  description: fault.description,
  operations: [...fault.operations],
});

/** A catalogue fault that is a response rewrite only: the proxy applies the sandbox's own function. */
function fromCatalogue(fault: Fault): FaultCase & { apply: ProxyFault } {
  if (!fault.response || fault.request || fault.delivery)
    throw new Error(`${fault.name} is not a response rewrite; the proxy cannot apply it`);
  return { ...caseOf(fault), apply: { response: fault.response } };
}

export const PROXY_FAULTS: Array<FaultCase & { apply: ProxyFault }> = [
  fromCatalogue(FAULT_CATALOGUE['rename-field']),
  fromCatalogue(FAULT_CATALOGUE['drop-required-field']),
  {
    name: 'ignore-ability',
    description: 'listing submissions answers 200 where 403 is due',
    operations: ['listFormSubmissions'],
    apply: {
      // On the mock, "the token lacks the ability" is Prefer: code=403; the broken service ignores it.
      request(req) {
        if (operationOf(req.method, req.path) === 'listFormSubmissions' && req.headers.prefer === 'code=403')
          delete req.headers.prefer;
      },
    },
  },
  fromCatalogue(FAULT_CATALOGUE['wrong-type']),
  { ...fromCatalogue(FAULT_CATALOGUE['wrong-content-type']), operations: ['getForm'] },
  fromCatalogue(FAULT_CATALOGUE['undocumented-status']),
  {
    name: 'public-needs-token',
    description: 'the public answer endpoint demands a token (401)',
    operations: ['createFormAnswer'],
    apply: {
      response(req, res) {
        if (operationOf(req.method, req.path) === 'createFormAnswer' && !req.headers.authorization) {
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

/** Every fault of the sandbox's catalogue, with the operations where the live suite reports it. */
export const SANDBOX_FAULT_CASES: FaultCase[] = SANDBOX_FAULTS.map((name) => caseOf(FAULT_CATALOGUE[name]));

/**
 * The sandbox with each fault switch in turn, following the contract or (`observed`) behaving like
 * the service: there every known drift is present too, and each fault must still be reported as
 * new drift on top of it.
 */
export function sandboxFaultSource(behaviour: SandboxBehaviour = 'contract'): FaultSource {
  const label = behaviour === 'contract' ? 'sandbox' : `sandbox (${behaviour})`;
  return {
    name: `${label} fault switches`,
    faults: SANDBOX_FAULT_CASES,
    start: (fault) => {
      if (fault !== undefined && !(SANDBOX_FAULTS as readonly string[]).includes(fault))
        throw new Error(`unknown sandbox fault ${fault}`);
      return startSandboxTarget({
        name: `selftest-${label}:${fault ?? 'baseline'}`,
        behaviour,
        ...(fault ? { faults: [fault as Fault['name']] } : {}),
      });
    },
    close: async () => {},
  };
}
