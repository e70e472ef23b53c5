// The values the suite passes around: recorded HTTP exchanges, failures (errors as values with a
// kind) and check results. Nothing here does I/O.
import type { ValidationResult } from '@forms-api/spec/validator';
import type { Ability } from '@forms-api/types';

/** Ajv's error object, taken from the spec validator so this app needs no direct Ajv dependency. */
export type ErrorObject = ValidationResult['errors'][number];

/** One HTTP request/response pair as sent by the client, kept for the report and the curl repro. */
export interface Exchange {
  readonly method: string;
  readonly url: string;
  /** Request headers; the Authorization value is kept here and redacted only when rendered. */
  readonly requestHeaders: Record<string, string>;
  readonly requestBody?: string;
  readonly status?: number;
  readonly responseHeaders?: Record<string, string>;
  readonly responseBody?: string;
  /** Set when the body was longer than the suite reads: `responseBody` holds only its first this many bytes. */
  readonly responseBodyLimit?: number;
  /** Set when the pacer stopped waiting out 429s: how many it met (the last one's headers say what it asked for). */
  readonly rateLimited?: { readonly refusals: number };
  /** Set when no response arrived (connection refused, timeout, abort). */
  readonly transportError?: string;
}

/** The token of an Authorization value: the value without its `Bearer` scheme. */
export const tokenOf = (authorization: string): string => authorization.replace(/^Bearer\s+/i, '');

/** The token an exchange sent (undefined: none sent). */
export function sentToken(exchange: Exchange): string | undefined {
  const authorization = Object.entries(exchange.requestHeaders).find(
    ([name]) => name.toLowerCase() === 'authorization',
  )?.[1];
  return authorization === undefined ? undefined : tokenOf(authorization);
}

export type FailureKind =
  | 'status' // the status is not the expected one (or not documented)
  | 'content-type' // the media type is not the documented one
  | 'schema' // the body does not validate against the documented schema
  | 'behaviour' // a behavioural check saw a departure from the contract (an observation)
  | 'transport' // no response, or a body that cannot be parsed
  | 'rate-limited' // the service answered 429: never contract drift, and never matched to the ledger
  | 'config' // the target lacks configuration the check needs
  | 'setup'; // the suite could not prepare the check (for example no submission to update)

export interface Failure {
  readonly kind: FailureKind;
  readonly message: string;
  readonly expected?: string;
  readonly received?: string;
  /** For `status`: the statuses, for ledger matching. */
  readonly expectedStatus?: readonly number[];
  readonly receivedStatus?: number;
  /** The situation the failure arose in, for the ledger's `when` (set from the exchange and the check's traits). */
  readonly situation?: Situation;
  /** For `schema`: the Ajv errors (in a result: the first few), and the operation (or webhook) whose schema it is. */
  readonly schemaErrors?: ErrorObject[];
  /** For `schema`: how many errors there were in all (set in results, where `schemaErrors` is capped). */
  readonly schemaErrorCount?: number;
  readonly operationId?: string;
  /** For `behaviour`: the name of what was observed (the ledger's `observation`), whichever check saw it. */
  readonly observation?: string;
  /** For `behaviour`: what differed, for the ledger's `symptom` (a look-alike of a known drift is new). */
  readonly symptom?: Symptom;
  readonly exchange?: Exchange;
}

/**
 * What a behavioural check saw differ, each part only where the observation has it: the status the
 * service answered, the places that differ (a JSON pointer, a query parameter, an answer's field
 * id) and what was received there, in the check's words (`object`, `absent`, `Success`).
 */
export interface Symptom {
  readonly status?: number;
  readonly at?: readonly string[];
  readonly received?: readonly string[];
}

/**
 * The situation of a request, as the ledger's `when` reads it: the abilities of the token it
 * carried (`null`: no token; absent: a token the suite does not know), the query it sent, and the
 * traits the check states about it (for example `body-omits-required-field`).
 */
export interface Situation {
  readonly abilities?: readonly Ability[] | null;
  readonly query: Readonly<Record<string, string>>;
  readonly traits: readonly string[];
}

export type Outcome = 'passed' | 'failed' | 'known-drift' | 'skipped' | 'info';

export interface CheckResult {
  readonly target: string;
  readonly operationId: string;
  readonly name: string;
  readonly outcome: Outcome;
  /** Why it failed / was skipped / what the note says. */
  readonly reason?: string;
  readonly failures: Failure[];
  /** Ledger entries this result was matched to (known drift, or additive info matched to an entry). */
  readonly driftIds: string[];
  /** Reproductions of the requests that caused the failures, token redacted. */
  readonly curl: string[];
  readonly durationMs: number;
}

// The two signals below are not errors of the suite (those are ContractTestsError, errors.ts): they
// are how a check leaves early, caught by the runner and turned into a result.

/** Thrown inside a check to skip it with a reason (for example a missing optional token). */
export class SkipCheck extends Error {}

/** Thrown inside a check to stop it with failures already gathered as values. */
export class CheckFailed extends Error {
  constructor(readonly failures: Failure[]) {
    super(failures.map((f) => f.message).join('; '));
  }
}
