// How adapters tell of the requests they refuse (a wrong secret refuses every delivery, silently
// otherwise): through `onRejected`, or by default the process's one rejection log, which writes a
// line when refusals start and then at most one summary a window, so a flood of forged requests
// cannot flood the log. webhook-inbox reports its refusals through the same log.
import { printable } from '@forms-api/internal/printable';
import { WebhookVerifyError } from './errors.js';
import type { Rejection } from './policy.js';

export const REJECTION_SUMMARY_WINDOW_MS = 60_000;

/** What the log is told of a refusal: never the secret, the signature or the body. */
export type RejectionReport = Pick<Rejection, 'message'> & { status: number; reason: string };

export interface RejectionLog {
  report(rejection: RejectionReport): void;
  /** Writes the summary of the refusals not yet written, and stops the timer. */
  close(): void;
}

export interface RejectionLogOptions {
  /** Starts each line. Default `[webhook-verify]`. */
  label?: string;
  /** Default: `console.error`, one call per line. */
  write?: (line: string) => void;
  /** How often refusals after the first are summed up. Default 60,000 ms. */
  windowMs?: number;
}

// Long enough for the advice of any rejection, short enough for one log line.
const MAX_MESSAGE = 500;

/**
 * A refusal while none is pending is one line (status, reason, the advice of its message); those
 * that follow within the window are counted by reason and written as one summary when it ends. A
 * misconfiguration (a 500: a body parser ran first) is written in full the first time each reason
 * is seen, since its message is the fix, then counted like the others.
 */
export function createRejectionLog(options: RejectionLogOptions = {}): RejectionLog {
  const { label = '[webhook-verify]', windowMs = REJECTION_SUMMARY_WINDOW_MS } = options;
  const write = options.write ?? ((line: string) => console.error(line));
  const seconds = Math.round(windowMs / 1000);
  // Refusals since the last line, while a window is open; undefined when the last window was quiet.
  let pending: Map<string, number> | undefined;
  let windowStart = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const told = new Set<string>();

  const summarise = (): boolean => {
    const counts = [...(pending ?? [])];
    if (counts.length === 0) return false;
    const total = counts.reduce((sum, [, count]) => sum + count, 0);
    const byReason = counts.map(([reason, count]) => `${reason} ${count}`).join(', ');
    write(
      `${label} refused ${total} more ${total === 1 ? 'delivery' : 'deliveries'} in the last ${seconds} s: ${byReason}.`,
    );
    return true;
  };
  const openWindow = () => {
    pending = new Map();
    windowStart = Date.now();
    clearTimeout(timer);
    timer = setTimeout(endWindow, windowMs);
    // A timer may never fire (Workers end it with the request): report() also ends a late window.
    (timer as { unref?: () => void }).unref?.();
  };
  const endWindow = () => {
    if (summarise()) openWindow();
    else {
      pending = undefined;
      clearTimeout(timer);
      timer = undefined;
    }
  };
  const count = (reason: string) => pending!.set(reason, (pending!.get(reason) ?? 0) + 1);

  return {
    report({ status, reason, message }) {
      if (pending && Date.now() - windowStart >= windowMs) endWindow();
      const misconfigured = status === 500;
      if (misconfigured && !told.has(reason)) {
        told.add(reason);
        write(
          `${label} cannot take deliveries: ${status} ${reason}: ${printable(message, { max: MAX_MESSAGE })} (said once; further ones are summed up every ${seconds} s)`,
        );
        if (!pending) openWindow();
        return;
      }
      if (pending) {
        count(reason);
        return;
      }
      openWindow();
      if (misconfigured) {
        count(reason);
        return;
      }
      write(
        `${label} refused a delivery: ${status} ${reason}: ${printable(message, { max: MAX_MESSAGE })} (further refusals are summed up every ${seconds} s)`,
      );
    },
    close() {
      clearTimeout(timer);
      summarise();
      pending = undefined;
      timer = undefined;
    },
  };
}

let processLog: RejectionLog | undefined;

/**
 * How an adapter reports a rejection it answered: `onRejected` when given, otherwise the process's
 * one rejection log (stderr is the process's, like the default body budget; one log per adapter
 * would write a first line for each, and a Workers handler made per request is one per request).
 * A hook that throws is told on stderr, not let through: it must not change the answer or end the process.
 */
export function rejectionReporter(options: { onRejected?: unknown }): (rejection: Rejection, error: unknown) => void {
  const hook = options.onRejected;
  if (hook !== undefined && typeof hook !== 'function')
    throw new WebhookVerifyError(
      'invalid_option',
      `\`onRejected\` takes a function (rejection, error) => void, not ${hook === null ? 'null' : typeof hook}; leave it out for one line on stderr when refusals start and a summary a minute.`,
      { context: { option: 'onRejected' } },
    );
  const report =
    (hook as ((rejection: Rejection, error: unknown) => void) | undefined) ??
    ((rejection: Rejection) => (processLog ??= createRejectionLog()).report(rejection));
  return (rejection, error) => {
    // An acknowledged duplicate is answered 200: not a refusal.
    if (rejection.status === 200) return;
    try {
      report(rejection, error);
    } catch (hookError) {
      console.error('@forms-api/webhook-verify: onRejected threw; the request was answered anyway.', hookError);
    }
  };
}
