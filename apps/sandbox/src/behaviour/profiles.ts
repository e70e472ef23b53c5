// The sandbox's behaviours as a whole: `contract` (the published contract, and the spec where it
// is silent; the sandbox's own rules) or `observed` (the service's code). startSandbox() applies
// the chosen profile's behaviours after any fault switches, so a fault changes what the profile
// answers and the answer is then encoded like the service's.
import type { Behaviour } from './behaviour.js';
import { OBSERVED_BEHAVIOUR } from './observed/index.js';

export const SANDBOX_BEHAVIOURS = ['contract', 'observed'] as const;
export type SandboxBehaviour = (typeof SANDBOX_BEHAVIOURS)[number];

export const BEHAVIOUR_PROFILES: { readonly [B in SandboxBehaviour]: readonly Behaviour[] } = {
  contract: [],
  observed: [OBSERVED_BEHAVIOUR],
};
