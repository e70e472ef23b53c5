import { FAULT_CATALOGUE, type Fault } from '@forms-api/sandbox/faults';

const fault: Fault = FAULT_CATALOGUE['drop-required-field'];
// fault.name, fault.description, fault.operations (where a contract suite must report it),
// fault.foundByExplorer (generated cases find it), fault.serverError (its violation is a 500), and
// its rewrites: fault.request?.(req, sandbox), fault.response?.(req, res), fault.delivery?.(delivery)
console.log(fault.name, fault.operations);
