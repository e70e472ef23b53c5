// What a check function works with: clients bound to the target's tokens that record every
// exchange, and assertions that gather failures as values instead of throwing on the first one.
import { askedWait } from '@forms-api/internal/asked-wait';
import { formatErrors } from '@forms-api/spec/validator';
import type { Ability } from '@forms-api/types';
import { operationsOf, pathValues, type SpecOperation } from './operations.js';
import { askedPage, listRows, orderValue, pageContradictions, paginatedOperations } from './page-invariants.js';
import type { SpecArtifacts } from './spec.js';
import {
  abilitiesOfToken,
  TOKEN_ROLES,
  tokenLacking,
  tokensLacking,
  tokenVariable,
  type Target,
  type TokenName,
} from './targets/target.js';
import { createHttpClient, ExchangeRecorder, type RawClient } from './targets/http-client.js';
import {
  CheckFailed,
  sentToken,
  SkipCheck,
  type ErrorObject,
  type Exchange,
  type Failure,
  type Situation,
  type Symptom,
} from './model.js';
import type { Result } from '@forms-api/types';
import { ContractTestsError } from './errors.js';
import { createPlaceholderRedactor, type Redact } from './report/placeholders.js';

/** How many schema errors a failure's text lists; the rest are counted ("and 19,990 more"). */
const LISTED_ERRORS = 8;
/** How much of a body a failure quotes. */
const EXCERPT_CHARS = 200;

/** The first schema errors as text, and how many more there were. */
export function describeErrors(errors: readonly ErrorObject[], listed = LISTED_ERRORS): string {
  const shown = formatErrors(errors.slice(0, listed)).join('; ');
  return errors.length > listed ? `${shown}; and ${(errors.length - listed).toLocaleString('en-US')} more` : shown;
}

/**
 * How two values of an ordered column compare (negative: `a` first ascending): numbers as numbers,
 * texts of one shape (a timestamp format) as texts, other times by the instant they name;
 * undefined for values that do not compare.
 */
function comparedValues(a: unknown, b: unknown): number | undefined {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a !== 'string' || typeof b !== 'string') return undefined;
  if (a.length === b.length) return a < b ? -1 : a > b ? 1 : 0;
  const [x, y] = [Date.parse(a), Date.parse(b)];
  return Number.isFinite(x) && Number.isFinite(y) ? x - y : undefined;
}

/** `undefined`: the main token; `null`: no Authorization header; a string: that token. */
export type TokenChoice = string | null | undefined;

export interface ExpectResponse {
  readonly operationId: string;
  /** Acceptable statuses; the first is the one reported as expected. */
  readonly status: number | number[];
  /**
   * What the check knows about the request beyond its token and query (the ledger's `when.traits`),
   * for example `body-omits-required-field`: it tells drift apart from new failures in the same status.
   */
  readonly traits?: readonly string[];
}

/** Options of a behavioural observation. */
export interface ObserveDetails {
  readonly expected?: string;
  readonly received?: string;
  readonly exchange?: Exchange;
  readonly traits?: readonly string[];
  /** What differed, as the ledger's `symptom` matches it. */
  readonly symptom?: Symptom;
}

export interface Note {
  /** Suffix of the result's name (default: closed schema). */
  readonly label?: string;
  readonly message: string;
  readonly failure: Failure;
}

export class CheckContext {
  readonly recorder: ExchangeRecorder;
  readonly failures: Failure[] = [];
  /** Informational findings (additive drift from closed validation); never fail a run by themselves. */
  readonly notes: Note[] = [];
  /** Cleanups registered by the check, run in reverse order even when it fails. */
  readonly cleanups: Array<{ label: string; run: () => Promise<void> }> = [];
  /** Set while the cleanups run: an interrupted run still sends what undoes the check's writes. */
  cleaningUp = false;

  constructor(
    readonly target: Target,
    readonly spec: SpecArtifacts,
    readonly signal: AbortSignal,
    readonly extraSecrets: Map<string, string> = new Map(),
  ) {
    const coverage = target.coverage;
    this.recorder = new ExchangeRecorder(coverage ? (exchange) => coverage.record(exchange) : undefined);
  }

  #redact: { size: number; redact: Redact } | undefined;

  /** Redacts the target's tokens and this check's secrets (rebuilt when a check adds a secret). */
  redact(text: string): string {
    const size = this.target.secrets.size + this.extraSecrets.size;
    if (this.#redact?.size !== size)
      this.#redact = {
        size,
        redact: createPlaceholderRedactor(new Map([...this.target.secrets, ...this.extraSecrets])),
      };
    return this.#redact.redact(text);
  }

  /**
   * The start of a text a tenant sent, for a failure's `received`. Redacted before it is cut, so a
   * cut never leaves part of a token that redaction would no longer recognise.
   */
  excerpt(text: string | undefined, chars = EXCERPT_CHARS): string {
    return this.redact(text ?? '').slice(0, chars);
  }

  client(token: TokenChoice = undefined, headers?: Record<string, string>): RawClient {
    const resolved = token === undefined ? this.target.tokens.token : token;
    return createHttpClient({
      baseUrl: this.target.baseUrl,
      recorder: this.recorder,
      ...(resolved ? { token: resolved } : {}),
      ...(headers ? { headers } : {}),
      ...(this.target.pacer ? { pacer: this.target.pacer } : {}),
      ...(this.target.traffic ? { traffic: this.target.traffic } : {}),
    });
  }

  /** A token the check needs, or a skip naming the variable that would provide it. */
  token(name: TokenName): string {
    const value = this.target.tokens[name];
    if (!value) throw new SkipCheck(`no token for this case (set ${tokenVariable(name)})`);
    return value;
  }

  /** Every operation of the spec the suite runs against, by operationId. */
  operations(): ReadonlyMap<string, SpecOperation> {
    return operationsOf(this.spec.bundle);
  }

  /** An operation of the spec the suite runs against (a check names only operations of it). */
  operation(operationId: string): SpecOperation {
    const op = this.operations().get(operationId);
    if (!op) throw new CheckFailed([{ kind: 'setup', message: `the spec has no operation ${operationId}` }]);
    return op;
  }

  /** The abilities that grant an operation (any one suffices), as the spec says. */
  #abilitiesOf(operationId: string): readonly Ability[] {
    return (this.operations().get(operationId)?.abilities ?? []) as readonly Ability[];
  }

  /** The token for an operation's 403 check: one without any ability the operation accepts. */
  tokenWithoutAbilityFor(operationId: string): string {
    const abilities = this.#abilitiesOf(operationId);
    return this.token(tokenLacking(abilities));
  }

  /**
   * Every token the target holds that carries none of the abilities the operation accepts, each
   * once: the 403 check tries them all, so a service that lets one ability stand in for another is
   * caught whichever it is (and a known stand-in is recognised by the token's abilities).
   */
  tokensWithoutAbilityFor(operationId: string): string[] {
    const abilities = this.#abilitiesOf(operationId);
    const tokens = tokensLacking(abilities).flatMap((name) => this.target.tokens[name] ?? []);
    if (tokens.length === 0) {
      // The role's name says what it lacks among the contract's abilities; say what it carries.
      const role = tokenLacking(abilities);
      const carries = TOKEN_ROLES[role].carries;
      throw new SkipCheck(
        `no token without ${abilities.join(' or ')} (set ${tokenVariable(role)}: a token with ${carries.length > 0 ? carries.join(', ') : 'no ability'} and nothing else)`,
      );
    }
    return [...new Set(tokens)];
  }

  skip(reason: string): never {
    throw new SkipCheck(reason);
  }

  /**
   * Runs one client call and returns what went over the wire. The client's own parsing result is
   * ignored: the suite judges the raw exchange, so a body the client cannot parse is still reported.
   */
  async send(call: () => Promise<unknown>): Promise<Exchange> {
    if (this.signal.aborted && !this.cleaningUp) throw new SkipCheck('interrupted');
    // Parse or transport errors are visible in the recorded exchange.
    const { answer: exchange } = await this.recorder.answer(this.target.pacer !== undefined, call);
    if (!exchange) throw new CheckFailed([{ kind: 'transport', message: 'the client sent no request' }]);
    return exchange;
  }

  /**
   * Records a failure with its situation: the abilities of the token the exchange carried, the query
   * it sent, and `traits`. Every failure is later matched against the ledger by that situation.
   */
  fail(failure: Failure, traits: readonly string[] = []): void {
    // A 429 says nothing about the contract, whichever check met it: it is reported as what it is.
    const unasked =
      failure.exchange?.status === 429 && failure.kind !== 'rate-limited' && !failure.expectedStatus?.includes(429);
    const judged = unasked ? rateLimitedFailure(failure.exchange!, failure.operationId) : failure;
    if (
      judged.kind === 'rate-limited' &&
      this.failures.some((f) => f.kind === 'rate-limited' && f.exchange === judged.exchange)
    )
      return;
    this.failures.push(judged.situation ? judged : { ...judged, situation: this.situationOf(judged.exchange, traits) });
  }

  /** The situation of an exchange, as the ledger's `when` reads it. */
  situationOf(exchange: Exchange | undefined, traits: readonly string[] = []): Situation {
    if (!exchange) return { query: {}, traits };
    const token = sentToken(exchange);
    let query: Record<string, string> = {};
    try {
      query = Object.fromEntries(new URL(exchange.url).searchParams);
    } catch {
      // A URL the suite built itself always parses; a situation without a query is still one.
    }
    const abilities = token === undefined ? null : abilitiesOfToken(this.target.tokens, token);
    return { ...(abilities !== undefined ? { abilities } : {}), query, traits };
  }

  /** Parses the JSON body of an exchange; an error value when it is not JSON (or was cut at the size limit). */
  json(exchange: Exchange): Result<unknown, ContractTestsError> {
    if (exchange.responseBodyLimit !== undefined)
      return {
        ok: false,
        error: new ContractTestsError(
          'invalid_json',
          `the body is longer than ${exchange.responseBodyLimit} bytes, more than the suite reads`,
          {
            context: { limit: exchange.responseBodyLimit },
          },
        ),
      };
    if (exchange.responseBody === undefined || exchange.responseBody === '')
      return { ok: false, error: new ContractTestsError('invalid_json', 'the body is empty') };
    try {
      return { ok: true, value: JSON.parse(exchange.responseBody) };
    } catch (error) {
      return {
        ok: false,
        error: new ContractTestsError(
          'invalid_json',
          `the body is not JSON (${error instanceof Error ? error.message : String(error)})`,
          {
            cause: error,
          },
        ),
      };
    }
  }

  /**
   * The checks every response gets: the status is the expected one and documented, the media type
   * is the documented one, and the body validates against the schema for that status (Ajv 2020).
   * Also validates closed (unknown properties rejected) and records those as notes.
   * Returns the parsed body when the status matched.
   */
  expectResponse(exchange: Exchange, expect: ExpectResponse): unknown {
    const { operationId } = expect;
    const statuses = Array.isArray(expect.status) ? expect.status : [expect.status];
    const expectedText = statuses.join(' or ');
    if (exchange.transportError !== undefined || exchange.status === undefined) {
      this.fail(
        {
          kind: 'transport',
          message: `${operationId}: no response (${exchange.transportError ?? 'unknown error'})`,
          expected: expectedText,
          received: 'no response',
          exchange,
          operationId,
        },
        expect.traits,
      );
      return undefined;
    }
    const status = exchange.status;
    // A 429 the check did not ask for (the mock's documented 429 is asked for with Prefer).
    if (status === 429 && !statuses.includes(429)) {
      this.fail(rateLimitedFailure(exchange, operationId), expect.traits);
      return undefined;
    }
    const documented: readonly number[] = this.operations().get(operationId)?.statuses ?? [];
    if (!statuses.includes(status)) {
      const undocumented = !documented.includes(status);
      this.fail(
        {
          kind: 'status',
          message: `${operationId}: expected status ${expectedText}, received ${status}${undocumented ? ' (not documented for this operation)' : ''}`,
          expected: expectedText,
          received: String(status),
          expectedStatus: statuses,
          receivedStatus: status,
          operationId,
          exchange,
        },
        expect.traits,
      );
      // The body of an unexpected but documented status is still worth validating.
      if (undocumented) return undefined;
    }
    return this.validateBody(exchange, operationId, status, expect.traits);
  }

  /** Media type and schema of a response body for its status. */
  validateBody(exchange: Exchange, operationId: string, status: number, traits: readonly string[] = []): unknown {
    const response = this.spec.validator.responseFor(operationId, status);
    const content = (response?.content ?? {}) as Record<string, unknown>;
    const mediaTypes = Object.keys(content);
    if (mediaTypes.length === 0) return undefined; // a documented empty response
    const received = (exchange.responseHeaders?.['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    const mediaType = mediaTypes.find((m) => m === received);
    if (!mediaType) {
      this.fail(
        {
          kind: 'content-type',
          message: `${operationId} ${status}: expected content type ${mediaTypes.join(' or ')}, received ${received || 'none'}`,
          expected: mediaTypes.join(' or '),
          received: received || 'none',
          operationId,
          exchange,
        },
        traits,
      );
    }
    const effective = mediaType ?? mediaTypes[0]!;
    if (exchange.responseBodyLimit !== undefined) {
      this.fail(
        {
          kind: 'transport',
          message: `${operationId} ${status}: the body is longer than ${exchange.responseBodyLimit} bytes; the suite stopped reading it`,
          expected: `a body of at most ${exchange.responseBodyLimit} bytes`,
          received: `${this.excerpt(exchange.responseBody, 80)}…`,
          operationId,
          exchange,
        },
        traits,
      );
      return undefined;
    }
    if (!effective.includes('json')) return exchange.responseBody;
    const parsed = this.json(exchange);
    if (!parsed.ok) {
      this.fail(
        {
          kind: 'transport',
          message: `${operationId} ${status}: the body is not JSON`,
          expected: 'a JSON body',
          received: this.excerpt(exchange.responseBody) || 'an empty body',
          operationId,
          exchange,
        },
        traits,
      );
      return undefined;
    }
    const result = this.spec.validator.validateResponse(operationId, status, parsed.value, effective);
    if (!result.valid) {
      this.fail(
        {
          kind: 'schema',
          message: `${operationId} ${status}: the body does not match the schema`,
          expected: 'a body valid against the spec',
          received: describeErrors(result.errors),
          schemaErrors: result.errors,
          operationId,
          exchange,
        },
        traits,
      );
    }
    this.target.coverage?.judged(operationId, 'schema');
    // What a list promises beyond its schema is judged whatever else the body gets wrong: a
    // known drift in its rows (a missing key) must not hide a new defect in their order or scope.
    if (status === 200) {
      this.#checkPage(exchange, operationId, parsed.value, traits);
      this.#checkRowsBelong(exchange, operationId, parsed.value, traits);
      this.#checkOrder(exchange, operationId, parsed.value, traits);
    }
    // Keys the spec does not name are additive: a note, also when the body fails for other reasons
    // (a known drift elsewhere must not hide them).
    const closed = this.spec.closedValidator.validateResponse(operationId, status, parsed.value, effective);
    const reported = new Set(
      result.valid ? [] : result.errors.map((e) => `${e.instancePath} ${e.keyword} ${JSON.stringify(e.params)}`),
    );
    const extraKeys = closed.valid
      ? []
      : closed.errors.filter(
          (e) =>
            (e.keyword === 'unevaluatedProperties' || e.keyword === 'additionalProperties') &&
            !reported.has(`${e.instancePath} ${e.keyword} ${JSON.stringify(e.params)}`),
        );
    if (extraKeys.length > 0) {
      const note: Failure = {
        kind: 'schema',
        message: `${operationId} ${status}: fields the spec does not name (additive)`,
        received: describeErrors(extraKeys),
        schemaErrors: extraKeys,
        operationId,
        exchange,
      };
      this.notes.push({ message: note.message, failure: { ...note, situation: this.situationOf(exchange, traits) } });
    }
    return parsed.value;
  }

  /**
   * A page of a paginated list (one the schema accepts) must add up: its meta and links agree with
   * its rows and, on a live target, with the page asked for (a mock answers its example whatever is asked).
   */
  #checkPage(exchange: Exchange, operationId: string, body: unknown, traits: readonly string[]): void {
    if (!paginatedOperations(this.spec.bundle, this.operations()).has(operationId)) return;
    this.target.coverage?.judged(operationId, 'page');
    const asked = this.target.kind === 'mock' ? undefined : askedPage(exchange.url);
    const found = pageContradictions(body, asked);
    if (found.length === 0) return;
    this.observe('page-contradicts-its-meta', operationId, `the page does not add up: ${found.join('; ')}`, {
      expected: 'meta and links that agree with the rows of the page and the page asked for',
      received: found.join('; '),
      exchange,
      traits,
    });
  }

  /**
   * Each row of a list names the parent its path names (the row properties the spec marks with
   * `x-identifies`: a submission's `form_id` under `/open/forms/{id}/submissions`). A path that
   * names its parent by slug is not compared.
   */
  #checkRowsBelong(exchange: Exchange, operationId: string, body: unknown, traits: readonly string[]): void {
    const op = this.operations().get(operationId);
    if (!op?.rowIdentifying || this.target.kind === 'mock') return;
    const rows = listRows(body);
    if (!rows) return;
    this.target.coverage?.judged(operationId, 'rows');
    const parents = pathValues(op, exchange.url);
    const strays: string[] = [];
    for (const { name, identifies } of op.rowIdentifying) {
      const parent = parents.get(identifies);
      if (parent === undefined || !/^\d+$/.test(parent)) continue;
      for (const row of rows) {
        const value = (row as Record<string, unknown> | null)?.[name];
        if (value !== undefined && String(value) !== parent)
          strays.push(`${(row as { id?: unknown }).id ?? 'a row'} has ${name} ${JSON.stringify(value)}`);
      }
      if (strays.length > 0) {
        this.observe(
          'row-of-another-parent',
          operationId,
          `rows of ${identifies} ${parent} belong elsewhere: ${strays.slice(0, 3).join('; ')}${strays.length > 3 ? ` (and ${strays.length - 3} more)` : ''}`,
          { expected: `every row's ${name} ${parent}`, received: strays[0]!, exchange, traits },
        );
        return;
      }
    }
  }

  /**
   * The rows of a list come in the order the spec states for it (`x-order`: a pointer into a row and
   * a direction); equal values may come in any order, and a row without the value is not compared.
   * Not on a mock, which answers its example whatever is asked.
   */
  #checkOrder(exchange: Exchange, operationId: string, body: unknown, traits: readonly string[]): void {
    const order = this.operations().get(operationId)?.rowOrder;
    if (!order || this.target.kind === 'mock') return;
    const rows = listRows(body);
    if (!rows) return;
    this.target.coverage?.judged(operationId, 'order');
    for (let i = 1; i < rows.length; i++) {
      const [before, after] = [orderValue(rows[i - 1], order.by), orderValue(rows[i], order.by)];
      const step = comparedValues(before, after);
      if (step === undefined || step === 0 || step > 0 === order.descending) continue;
      const id = (row: unknown) => String((row as { id?: unknown } | null)?.id ?? `row ${rows.indexOf(row) + 1}`);
      this.observe(
        'rows-out-of-order',
        operationId,
        `not ${order.by} ${order.descending ? 'descending' : 'ascending'}: ${id(rows[i - 1])} (${JSON.stringify(before)}) before ${id(rows[i])} (${JSON.stringify(after)})`,
        {
          expected: `${order.by} ${order.descending ? 'descending' : 'ascending'}`,
          received: `${JSON.stringify(before)} before ${JSON.stringify(after)}`,
          exchange,
          traits,
        },
      );
      return;
    }
  }

  /**
   * A behavioural departure from the contract, named by what was seen (`observation`, the ledger's
   * name for it), whichever check saw it.
   */
  observe(observation: string, operationId: string, message: string, details: ObserveDetails = {}): void {
    const { traits = [], ...rest } = details;
    this.fail({ kind: 'behaviour', observation, operationId, message: `${observation}: ${message}`, ...rest }, traits);
  }

  onCleanup(label: string, run: () => Promise<void>): void {
    this.cleanups.push({ label, run });
  }
}

/**
 * A request the service refused with 429: reported as rate limited, with the wait it asked for,
 * never as a status the contract does not expect (so never as drift, known or new).
 */
export function rateLimitedFailure(exchange: Exchange, operationId: string | undefined): Failure {
  const retryAfter = askedWait(new Headers(exchange.responseHeaders), Date.now());
  const asked =
    retryAfter === undefined ? 'without saying how long to wait' : `asking to wait ${Math.ceil(retryAfter / 1000)} s`;
  const why = exchange.rateLimited
    ? `still refused after ${exchange.rateLimited.refusals} 429(s) waited out, ${asked}: lower --rate-limit, or run when no one else spends the token's budget`
    : `answered 429 ${asked} (pacing is off: --rate-limit)`;
  return {
    kind: 'rate-limited',
    message: `${operationId ?? 'request'}: rate limited, ${why}`,
    expected: 'an answer within the rate limit',
    received: `429${retryAfter === undefined ? '' : ` (asks to wait ${Math.ceil(retryAfter / 1000)} s)`}`,
    receivedStatus: 429,
    ...(operationId ? { operationId } : {}),
    exchange,
  };
}
