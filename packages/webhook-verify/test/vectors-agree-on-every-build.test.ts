// The shared vector file gives the same results on the Node build and the Web Crypto build
// (sources), and with globalThis.Buffer deleted; dist builds on Node 20/22/24 run in `pnpm test`.
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error plain JS helper shared with the dist runner
import { expectedLines, runVectors, vectors } from './vector-runner.mjs';
import * as nodeBuild from '../src/node.js';
import * as webBuild from '../src/web.js';

describe('test vectors', () => {
  it('hold at least the published vector and 20 negative cases', () => {
    expect(vectors.valid[0].signature).toBe('sha256=ee44b19c75e4c2b4bd663159443a0baf9b35b1ce9f9dbf3ef9c9b3edd50f25ca');
    expect(vectors.invalid.length).toBeGreaterThanOrEqual(20);
  });

  it('pass on the Node build', async () => {
    expect(await runVectors(nodeBuild)).toEqual(expectedLines());
  });

  it('pass on the Web Crypto build', async () => {
    expect(await runVectors(webBuild)).toEqual(expectedLines());
  });

  describe('without globalThis.Buffer', () => {
    const saved = globalThis.Buffer;
    afterEach(() => {
      globalThis.Buffer = saved;
    });
    it('the Web Crypto build gives identical results', async () => {
      // @ts-expect-error removing Buffer on purpose, as in browsers and Workers
      delete globalThis.Buffer;
      expect(globalThis.Buffer).toBeUndefined();
      expect(await runVectors(webBuild)).toEqual(expectedLines());
    });
  });
});
