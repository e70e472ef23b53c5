// Checks the parse options once, where they are given, so a wrong option fails at start-up with
// the fix instead of switching a guard off or surfacing as a TypeError on the first request.
import { integerOption, keysOf, refuseUnknownOptions } from '@forms-api/internal/option-names';
import type { ReplayStore } from '../replay.js';
import { unsetHint } from './body-limits.js';
import { WebhookVerifyError } from './errors.js';

/** Checks a parsed payload; returns the problems found (empty when valid). */
export type PayloadValidator = (payload: unknown) => readonly string[];

export interface ParseOptions {
  /** Validate the payload against the submission.created schema: pass `createPayloadValidator()` from `@forms-api/webhook-verify/validate`. */
  validate?: PayloadValidator;
  /** Refuse a delivery whose signature is already claimed within `replayTtlMs` (reason `replayed`). */
  replayStore?: ReplayStore;
  /** How long a claim lasts, in milliseconds (a positive integer). Default 24 hours; needs `replayStore`. */
  replayTtlMs?: number;
}

/** The names of `ParseOptions`: a misspelt one (`validator`) would switch its guard off unseen. */
export const PARSE_OPTION_NAMES = keysOf<ParseOptions>({ validate: true, replayStore: true, replayTtlMs: true });

/** The options after checking: the replay guard is on exactly when `replay` is set. */
export interface CheckedParseOptions {
  validate: PayloadValidator | undefined;
  replay: { store: ReplayStore; ttlMs: number } | undefined;
}

export const DEFAULT_REPLAY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Checks the parse options; with `where` (a public function's name), also that every name is one
 * of them or of `also` (the function's own, such as `secret`).
 */
export function checkParseOptions(
  options: ParseOptions | undefined,
  where?: string,
  also: readonly string[] = [],
): CheckedParseOptions {
  if (where !== undefined && options !== null && typeof options === 'object')
    refuseUnknownOptions(WebhookVerifyError, options, [...also, ...PARSE_OPTION_NAMES], where);
  const { validate, replayStore, replayTtlMs } = options ?? {};
  if (validate !== undefined && typeof validate !== 'function') {
    throw new WebhookVerifyError(
      'invalid_option',
      `\`validate\` takes a validator function, not ${describe(validate)}: \`import { createPayloadValidator } from '@forms-api/webhook-verify/validate'\` and pass \`validate: createPayloadValidator()\`.`,
      { context: { option: 'validate' } },
    );
  }
  if (replayStore === undefined) {
    if (replayTtlMs !== undefined) {
      throw new WebhookVerifyError(
        'invalid_option',
        '`replayTtlMs` was given without `replayStore`, so no replay would be refused. Pass a store too, for example `replayStore: new MemoryReplayStore()`.',
        { context: { option: 'replayTtlMs' } },
      );
    }
    return { validate, replay: undefined };
  }
  if (
    typeof replayStore !== 'object' ||
    replayStore === null ||
    typeof replayStore.claim !== 'function' ||
    typeof replayStore.release !== 'function'
  ) {
    throw new WebhookVerifyError(
      'invalid_option',
      '`replayStore` must implement `claim(key, ttlMs)` (atomic: true when this caller now holds the key) and `release(key)`: pass `new MemoryReplayStore()`, or across processes the `RedisReplayStore` of @forms-api/webhook-inbox.',
      { context: { option: 'replayStore' } },
    );
  }
  // NaN (`Number(process.env.UNSET)`), 0 or a negative window would switch the guard off unseen.
  if (replayTtlMs !== undefined)
    integerOption(WebhookVerifyError, replayTtlMs, 'replayTtlMs', {
      unit: 'milliseconds',
      hint: unsetHint('24 hours'),
    });
  const ttlMs = replayTtlMs ?? DEFAULT_REPLAY_TTL_MS;
  return { validate, replay: { store: replayStore, ttlMs } };
}

function describe(value: unknown): string {
  return value === null ? 'null' : typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}
