// Property-based checks of one build, shared by the vitest suite (sources, Node 20) and the
// dist runner (every runtime): signing then verifying holds for any body and secret; any
// single-byte change of the body or the signature breaks it; no header string makes verify throw.
// Plain JS, so it also runs outside vitest.
import fc from 'fast-check';

const secretArb = fc.string({ minLength: 1, maxLength: 64 }).filter((s) => s.trim() === s);
const bodyArb = fc.uint8Array({ maxLength: 2048 });

/** @param {{ sign: Function, verify: Function }} api  @returns {Record<string, () => Promise<void>>} */
export function signatureProperties(api, scale = 1) {
  const runs = (n) => Math.max(1, Math.round(n * scale));
  const expectEqual = (actual, expected, what) => {
    if (actual !== expected) throw new Error(`${what}: expected ${expected}, got ${actual}`);
  };
  return {
    'verifies what it signs': () =>
      fc.assert(
        fc.asyncProperty(secretArb, bodyArb, async (secret, body) =>
          expectEqual(await api.verify(secret, body, await api.sign(secret, body)), true, 'verify(sign(body))'),
        ),
        { numRuns: runs(200) },
      ),
    'rejects any single-byte change of the body': () =>
      fc.assert(
        fc.asyncProperty(
          secretArb,
          bodyArb.filter((b) => b.length > 0),
          fc.nat(),
          fc.integer({ min: 1, max: 255 }),
          async (secret, body, at, delta) => {
            const signature = await api.sign(secret, body);
            const changed = Uint8Array.from(body);
            const index = at % changed.length;
            changed[index] = (changed[index] + delta) % 256;
            expectEqual(await api.verify(secret, changed, signature), false, 'verify(changed body)');
          },
        ),
        { numRuns: runs(200) },
      ),
    'rejects any single-character change of the signature': () =>
      fc.assert(
        fc.asyncProperty(
          secretArb,
          bodyArb,
          fc.integer({ min: 0, max: 70 }),
          fc.string({ minLength: 1, maxLength: 1, unit: 'binary-ascii' }),
          async (secret, body, at, replacement) => {
            const signature = await api.sign(secret, body);
            fc.pre(signature[at] !== replacement);
            const changed = signature.slice(0, at) + replacement + signature.slice(at + 1);
            expectEqual(await api.verify(secret, body, changed), false, 'verify(changed signature)');
          },
        ),
        { numRuns: runs(300) },
      ),
    'never throws on arbitrary header strings': () =>
      fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.string(),
            fc.string({ unit: 'binary' }),
            fc.string({ unit: 'grapheme' }),
            fc.constant(undefined),
            fc.constant(null),
          ),
          async (header) => {
            expectEqual(await api.verify('whsec_1234567890ab', '{}', header), false, 'verify(arbitrary header)');
          },
        ),
        { numRuns: runs(500) },
      ),
  };
}
