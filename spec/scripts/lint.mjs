// Lints the spec: Redocly on the multi-file source, then Spectral (project ruleset) on a scratch
// bundle of it, since Spectral mis-validates 3.1 path items that are external $refs, and the same
// two on the observed bundle (the contract widened by the drift ledger's shapes). Any error or
// warning fails the lint.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { bundleSpec, redoclyEnv, specDir } from './bundle-spec.mjs';
import { applyDriftShapes } from './observed-shapes.mjs';

const run = (cmd, args) => execFileSync(cmd, args, { cwd: specDir, stdio: 'inherit', env: redoclyEnv });

run('redocly', ['lint', 'openapi.yaml', '--config', 'redocly.yaml']);
const scratchDir = join(specDir, 'node_modules', 'spec-lint-scratch');
mkdirSync(scratchDir, { recursive: true });
const bundle = bundleSpec();
const { observed } = applyDriftShapes(bundle, parse(readFileSync(join(specDir, 'drift.yaml'), 'utf8')));
for (const [name, document] of [
  ['openapi.yaml', bundle],
  ['openapi.observed.yaml', observed],
]) {
  const scratch = join(scratchDir, name);
  writeFileSync(scratch, stringify(document, { lineWidth: 0 }));
  try {
    if (name !== 'openapi.yaml') run('redocly', ['lint', scratch, '--config', 'redocly.yaml']);
    run('spectral', ['lint', scratch, '--ruleset', '.spectral.yaml', '--fail-severity', 'warn']);
  } catch {
    process.exitCode = 1;
  }
}
