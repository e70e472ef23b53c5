// The behaviour layer's public face: the fault catalogue and the types its rewrites work on, for
// the contract suite's self-test (its mutating proxy applies the same response rewrites).
export type { Behaviour, ExchangeRequest, ExchangeResponse, OutgoingDelivery, SandboxView } from './behaviour.js';
export { FAULT_CATALOGUE, SANDBOX_FAULTS, type Fault, type SandboxFault } from './faults.js';
export { operationOf, type OperationId } from '../operations.js';
