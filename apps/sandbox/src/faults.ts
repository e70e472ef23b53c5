// Deliberate contract violations, switched on one by one, so the contract suite can prove it
// catches each of them (its self-test). Off by default; never part of normal behaviour.
export const SANDBOX_FAULTS = [
  'rename-field',
  'drop-required-field',
  'ignore-ability',
  'wrong-type',
  'unsorted',
  'ignore-filter',
  'overlapping-pages',
  'bad-signature',
  'wrong-content-type',
  'undocumented-status',
  'missing-event',
] as const;
export type SandboxFault = (typeof SANDBOX_FAULTS)[number];

export function assertFaults(faults: readonly string[]): asserts faults is SandboxFault[] {
  const unknown = faults.filter((f) => !(SANDBOX_FAULTS as readonly string[]).includes(f));
  if (unknown.length > 0) throw new Error(`Unknown sandbox fault(s): ${unknown.join(', ')}. Known: ${SANDBOX_FAULTS.join(', ')}.`);
}
