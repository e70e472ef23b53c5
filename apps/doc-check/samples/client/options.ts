import { createFormsClient } from '@forms-api/client';

const baseUrl = process.env.FORMS_API_BASE_URL!;
const token = process.env.FORMS_API_TOKEN!;
const shutdown = new AbortController();
process.once('SIGTERM', () => shutdown.abort());

// #region options
const forms = createFormsClient({
  baseUrl,
  token,
  timeoutMs: 10_000, // per attempt (default 30 000; Infinity for none)
  retry: {
    retries: 3,
    baseDelayMs: 300,
    maxDelayMs: 10_000,
    maxRetryAfterMs: 60_000,
    // Called before each wait; return false to stop (the call then fails with that attempt's error).
    onRetry: ({ operation, attempt, reason, status, delayMs }) => {
      console.warn(
        `${operation.operationId}: attempt ${attempt} failed (${reason} ${status ?? ''}), retrying in ${delayMs} ms`,
      );
      return delayMs <= 30_000;
    },
  },
  signal: shutdown.signal, // aborts every call of this client
});
await forms.forms.get(11, { timeoutMs: 2_000, retry: false, signal: AbortSignal.timeout(5_000) });
// #endregion
