// The sandbox's one programmatic error: what startSandbox() and loadSeed() throw when they are
// misused. The HTTP answers the sandbox serves (the service's own error bodies) are not these.
import { BrandedError, guardFor } from '@forms-api/internal';

export type SandboxErrorKind =
  /** A switch name FAULT_CATALOGUE does not have; `context.unknown` lists them. */
  | 'unknown_fault'
  /** `behaviour` is neither `contract` nor `observed`; `context.behaviour` is what was given. */
  | 'unknown_behaviour'
  /** The seed file cannot be read or is not JSON; `context.path` names it. */
  | 'unreadable_seed'
  /** The seed fixture lacks arrays or tokens the sandbox needs; `context` says which. */
  | 'invalid_seed'
  /** An option is malformed or not one of startSandbox's; `context.option` names it. */
  | 'invalid_option'
  /** The server could not listen (the port is taken, the host is not an address of this machine). */
  | 'listen_failed';

/** What was judged: the option, the value (never a secret: the admin token only by its length). */
export type SandboxErrorContext = Readonly<Record<string, unknown>>;

export class SandboxError extends BrandedError<SandboxErrorKind, SandboxErrorContext> {
  static override readonly brand = Symbol.for('@forms-api/sandbox/error');
  override readonly name = 'SandboxError';
}

/** Whether `value` is a SandboxError, from this copy of the package or any other (not `instanceof`). */
export const isSandboxError = guardFor(SandboxError);
