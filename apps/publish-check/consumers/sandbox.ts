// A TypeScript test setup starts the sandbox and gets its handle typed: tokens by name, seeded
// workspaces and forms, typed configuration errors; an unknown token name or fault must not compile.
import {
  isSandboxError,
  startSandbox,
  type SandboxErrorKind,
  type SandboxHandle,
  type SandboxOptions,
  type TokenName,
} from '@forms-api/sandbox';
import { FAULT_CATALOGUE, type Fault, type SandboxFault } from '@forms-api/sandbox/faults';

const options: SandboxOptions = { port: 0, allowPrivateWebhooks: true, rateLimit: false };

export async function withSandbox<T>(use: (baseUrl: string, token: string, formId: number) => Promise<T>): Promise<T> {
  const sandbox: SandboxHandle = await startSandbox(options);
  try {
    const name: TokenName = 'read';
    return await use(sandbox.baseUrl, sandbox.tokens[name], sandbox.workspaces[0]!.forms[0]!.id);
  } finally {
    await sandbox.close();
  }
}

// @ts-expect-error 'admin' is not a token of the seed
export const wrongToken: TokenName = 'admin';
// @ts-expect-error 'slow-network' is not a fault
export const wrongFault: SandboxFault = 'slow-network';
export const fault: Fault = FAULT_CATALOGUE['drop-required-field'];

export function kindOf(error: unknown): SandboxErrorKind | 'other' {
  return isSandboxError(error) ? error.kind : 'other';
}
