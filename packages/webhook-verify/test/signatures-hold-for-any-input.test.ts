// Property-based: signing then verifying holds for any body and secret; any single-byte change
// of the body or the signature breaks it; no header string ever makes verify throw. The same
// properties run on the built package on every runtime (run-properties.mjs).
import { describe, it } from 'vitest';
import * as nodeBuild from '../src/node.js';
import * as webBuild from '../src/web.js';
// @ts-expect-error plain JS helper shared with the dist runner
import { signatureProperties } from './signature-properties.mjs';

describe.each([
  ['node', nodeBuild],
  ['web', webBuild],
])('%s build', (_name, api) => {
  for (const [name, run] of Object.entries(signatureProperties(api) as Record<string, () => Promise<void>>))
    it(name, run);
});
