// Property-based: signing then verifying holds for any body and secret; any single-byte change
// of the body or the signature breaks it; no header string ever makes verify throw.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as nodeBuild from '../src/node.js';
import * as webBuild from '../src/web.js';

const secretArb = fc.string({ minLength: 1, maxLength: 64 }).filter((s) => s.trim() === s);
const bodyArb = fc.uint8Array({ maxLength: 2048 });

describe.each([
  ['node', nodeBuild],
  ['web', webBuild],
])('%s build', (_name, api) => {
  it('verifies what it signs', async () => {
    await fc.assert(
      fc.asyncProperty(secretArb, bodyArb, async (secret, body) => {
        expect(await api.verify(secret, body, await api.sign(secret, body))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('rejects any single-byte change of the body', async () => {
    await fc.assert(
      fc.asyncProperty(secretArb, bodyArb.filter((b) => b.length > 0), fc.nat(), fc.integer({ min: 1, max: 255 }), async (secret, body, at, delta) => {
        const signature = await api.sign(secret, body);
        const changed = Uint8Array.from(body);
        const index = at % changed.length;
        changed[index] = (changed[index]! + delta) % 256;
        expect(await api.verify(secret, changed, signature)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('rejects any single-character change of the signature', async () => {
    await fc.assert(
      fc.asyncProperty(secretArb, bodyArb, fc.integer({ min: 0, max: 70 }), fc.string({ minLength: 1, maxLength: 1, unit: 'binary-ascii' }), async (secret, body, at, replacement) => {
        const signature = await api.sign(secret, body);
        fc.pre(signature[at] !== replacement);
        const changed = signature.slice(0, at) + replacement + signature.slice(at + 1);
        expect(await api.verify(secret, body, changed)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on arbitrary header strings', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.constant(undefined), fc.constant(null)), async (header) => {
        expect(await api.verify('whsec_1234567890ab', '{}', header as string | undefined)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});
