// What an operator sees of refused deliveries without a metrics stack (a wrong secret refuses every
// delivery): one stderr line when refusals start, then at most one summary a window, so a flood of
// forged requests cannot flood the log. The metrics count every refusal by reason.
import { printable } from './printable.js';

/** A delivery the receiver refused before queueing it: webhook-verify's answer (401, 400, 408, 413, 415, 503). */
export interface InboxRejection {
  /** webhook-verify's reason (`signature_mismatch`, `body_too_large`, …), the metrics' `reason` label. */
  reason: string;
  status: number;
  /** The message sent back to the sender: what was wrong, never the secret or the signature. */
  message: string;
}

export const REJECTION_SUMMARY_WINDOW_MS = 60_000;

export interface RejectionLog {
  report(rejection: InboxRejection): void;
  /** Writes the summary of the refusals not yet written, and stops the timer. */
  close(): void;
}

export function rejectionLog(
  write: (line: string) => void,
  windowMs: number = REJECTION_SUMMARY_WINDOW_MS,
): RejectionLog {
  // Refusals since the last line, while a window is open; undefined when the last window was quiet.
  let pending: Map<string, number> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const seconds = Math.round(windowMs / 1000);

  const summarise = (): boolean => {
    const counts = [...(pending ?? [])];
    if (counts.length === 0) return false;
    const total = counts.reduce((sum, [, count]) => sum + count, 0);
    const byReason = counts.map(([reason, count]) => `${reason} ${count}`).join(', ');
    write(
      `[webhook-inbox] refused ${total} more ${total === 1 ? 'delivery' : 'deliveries'} in the last ${seconds} s: ${byReason}.`,
    );
    return true;
  };
  const endWindow = () => {
    const wrote = summarise();
    pending = wrote ? new Map() : undefined;
    timer = wrote ? startWindow() : undefined;
  };
  const startWindow = () => {
    const next = setTimeout(endWindow, windowMs);
    next.unref?.();
    return next;
  };

  return {
    report({ reason, status, message }) {
      if (pending) {
        pending.set(reason, (pending.get(reason) ?? 0) + 1);
        return;
      }
      write(
        `[webhook-inbox] refused a delivery: ${status} ${reason}: ${printable(message)} (further refusals are summed up every ${seconds} s)`,
      );
      pending = new Map();
      timer = startWindow();
    },
    close() {
      clearTimeout(timer);
      summarise();
      pending = undefined;
      timer = undefined;
    },
  };
}
