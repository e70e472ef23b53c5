// Support for tests and tools that start real servers. `freePort` is the one of
// `@forms-api/internal`, which the contract suite inlines too: written once for both.
export { freePort } from '@forms-api/internal/free-port';

/**
 * Waits for a condition instead of a fixed sleep: resolves with the first truthy answer of `check`,
 * asked every `everyMs`; fails naming `what` after `timeoutMs`. A check that throws fails the wait,
 * unless `retryErrors` is set (a server still starting refuses the question): then it is asked
 * again, and the last error is named if time runs out.
 */
export async function until(what, check, { timeoutMs = 30_000, everyMs = 50, retryErrors = false } = {}) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  for (;;) {
    try {
      const answer = await check();
      if (answer) return answer;
    } catch (error) {
      if (!retryErrors) throw error;
      lastError = error;
    }
    if (Date.now() > deadline)
      throw new Error(`${what}: not within ${timeoutMs} ms${lastError ? ` (last error: ${lastError.message})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
