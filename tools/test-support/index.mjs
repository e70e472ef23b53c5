// Support for tests and tools that start real servers. `freePort` is the one of
// `@forms-api/internal`, which the contract suite inlines too: written once for both.
export { freePort } from '@forms-api/internal/free-port';

/**
 * Waits for a condition instead of a fixed sleep: resolves with the first truthy answer of `check`,
 * asked every `everyMs`; fails naming `what` after `timeoutMs`.
 */
export async function until(what, check, { timeoutMs = 30_000, everyMs = 50 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await check();
    if (answer) return answer;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
