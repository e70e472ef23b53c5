// Lints the spec: Redocly on the multi-file source, then Spectral (project ruleset) on a scratch
// bundle of it, since Spectral mis-validates 3.1 path items that are external $refs. Any error or
// warning from either fails the lint.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { bundleSpec, redoclyEnv, specDir } from './bundle-spec.mjs';

const run = (cmd, args) => execFileSync(cmd, args, { cwd: specDir, stdio: 'inherit', env: redoclyEnv });

run('redocly', ['lint', 'openapi.yaml', '--config', 'redocly.yaml']);
const scratchDir = join(specDir, 'node_modules', 'spec-lint-scratch');
mkdirSync(scratchDir, { recursive: true });
const scratch = join(scratchDir, 'openapi.yaml');
writeFileSync(scratch, stringify(bundleSpec(), { lineWidth: 0 }));
try {
  run('spectral', ['lint', scratch, '--ruleset', '.spectral.yaml', '--fail-severity', 'warn']);
} catch {
  process.exitCode = 1;
}
