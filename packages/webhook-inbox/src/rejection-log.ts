// What an operator sees of refused deliveries without a metrics stack (a wrong secret refuses every
// delivery): webhook-verify's rejection log, the one its adapters use, labelled for the inbox. One
// stderr line when refusals start, then at most one summary a window; the metrics count every one.
import { createRejectionLog, REJECTION_SUMMARY_WINDOW_MS, type RejectionLog } from '@forms-api/webhook-verify';

/** A delivery the receiver refused before queueing it: webhook-verify's answer (401, 400, 408, 413, 415, 503). */
export interface InboxRejection {
  /** webhook-verify's reason (`signature_mismatch`, `body_too_large`, …), the metrics' `reason` label. */
  reason: string;
  status: number;
  /** The message sent back to the sender: what was wrong, never the secret or the signature. */
  message: string;
}

export type { RejectionLog };

export function rejectionLog(
  write: (line: string) => void,
  windowMs: number = REJECTION_SUMMARY_WINDOW_MS,
): RejectionLog {
  return createRejectionLog({ label: '[webhook-inbox]', write, windowMs });
}
