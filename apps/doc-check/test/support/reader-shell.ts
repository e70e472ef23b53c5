// A reader's shell for the README commands: this repository (built: the commands run after every
// other task), pnpm installed the way the README says (`npm install --global pnpm@…`, into a
// prefix of its own), and an environment without this test run's node_modules/.bin folders or
// pnpm and turbo variables.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from '../../src/documents.js';

export interface ReaderShell {
  /** The repository, as the reader's checkout. */
  readonly dir: string;
  /** A folder of the reader's own (a project outside the repository). */
  readonly scratch: string;
  /** The environment a reader's shell would have, with the README's pnpm on PATH once installed. */
  readonly env: Record<string, string>;
  /** Runs the README's pnpm install line into a prefix of its own and puts it on `env.PATH`. */
  installPnpm(line: string): void;
  remove(): void;
}

/** Variables of this test run (pnpm, turbo, vitest) that a reader's shell would not have. */
const RUN_VARIABLES = /^(npm_|PNPM_|TURBO_(?!TELEMETRY_DISABLED)|VITEST|INIT_CWD$|NODE_OPTIONS$|NODE_PATH$)/i;

export function readerShell(): ReaderShell {
  const root = mkdtempSync(join(tmpdir(), 'doc-commands-'));
  const prefix = join(root, 'npm-global');
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !RUN_VARIABLES.test(key)) env[key] = value;
  // Node and the system tools, not the node_modules/.bin folders pnpm put in front for this run.
  env.PATH = [
    dirname(process.execPath),
    ...(process.env.PATH ?? '').split(':').filter((p) => p && !p.includes('node_modules')),
  ].join(':');
  env.TURBO_TELEMETRY_DISABLED = '1';
  env.npm_config_update_notifier = 'false';
  return {
    dir: REPO_ROOT,
    scratch: root,
    env,
    installPnpm(line: string) {
      execFileSync('bash', ['-euo', 'pipefail', '-c', line], {
        cwd: root,
        env: { ...env, npm_config_prefix: prefix },
        stdio: 'pipe',
      });
      env.PATH = `${join(prefix, 'bin')}:${env.PATH}`;
    },
    remove() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}
