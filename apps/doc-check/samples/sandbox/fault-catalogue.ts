import { FAULT_CATALOGUE, type Fault } from '@forms-api/sandbox/faults';

const fault: Fault = FAULT_CATALOGUE['drop-required-field'];
// fault.name, fault.description, fault.operations (where a contract suite must report it), and its
// rewrites: fault.request?.(req, sandbox), fault.response?.(req, res), fault.delivery?.(delivery)
console.log(fault.name, fault.operations);
