// The behaviour layer's public face: the fault catalogue and the types its rewrites work on, for
// the contract suite's self-test (its mutating proxy applies the same response rewrites), and the
// names of the sandbox's behaviours.
export type { Behaviour, ExchangeRequest, ExchangeResponse, OutgoingDelivery, SandboxView } from './behaviour.js';
export { FAULT_CATALOGUE, SANDBOX_FAULTS, type Fault, type SandboxFault } from './faults.js';
export { SANDBOX_BEHAVIOURS, type SandboxBehaviour } from './profiles.js';
export { operationOf, type OperationId } from '../operations.js';
