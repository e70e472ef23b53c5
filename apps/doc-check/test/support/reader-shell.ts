// A reader's shell for the README commands: a checkout of its own (a copy of this working tree,
// installed and built by pnpm installed the way the README says, `npm install --global pnpm@…`,
// into a prefix of its own), and an environment without this test run's node_modules/.bin folders
// or pnpm and turbo variables. The copy is what lets the commands run while the other tasks of
// `pnpm test` still test this tree: a rebuild, `pnpm install` or a contract report of a command
// never touches the files those tasks read.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from '../../src/documents.js';

export interface ReaderShell {
  /** The reader's checkout: a copy of this working tree, once `checkOut` has run. */
  readonly dir: string;
  /** A folder of the reader's own (a project outside the repository). */
  readonly scratch: string;
  /** The environment a reader's shell would have, with the README's pnpm on PATH once installed. */
  readonly env: Record<string, string>;
  /** Runs the README's pnpm install line into a prefix of its own and puts it on `env.PATH`. */
  installPnpm(line: string): void;
  /** Makes `dir` the reader's checkout, installed and built by `setUp` (a printed line) with the installed pnpm. */
  checkOut(setUp: string): void;
  remove(): Promise<void>;
}

/** Variables of this test run (pnpm, turbo, vitest) that a reader's shell would not have. */
const RUN_VARIABLES = /^(npm_|PNPM_|TURBO_(?!TELEMETRY_DISABLED)|VITEST|INIT_CWD$|NODE_OPTIONS$|NODE_PATH$)/i;

/**
 * The ignored files tasks read by name (the inputs root turbo.json names by path, such as the
 * contract report and the coverage.json beside it, which an earlier step of CI leaves and the
 * docs build reads): copied when present, so that the copy's tasks hash as this tree's do and this
 * run's cache answers them. Without coverage.json the docs build of the copy missed the cache and
 * ran again in CI. Build outputs (`dist/`) are not copied: the cache restores them.
 */
function ignoredInputs(): string[] {
  const turbo = readFileSync(join(REPO_ROOT, 'turbo.json'), 'utf8');
  const named = [...turbo.matchAll(/"\$TURBO_ROOT\$\/([^"*!]+)"/g)].map((m) => m[1]!);
  return named.filter((file) => !/(^|\/)dist\//.test(file) && existsSync(join(REPO_ROOT, file)));
}

export function readerShell(): ReaderShell {
  const root = mkdtempSync(join(tmpdir(), 'doc-commands-'));
  const prefix = join(root, 'npm-global');
  const dir = join(root, 'checkout');
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
  const bash = (script: string, cwd: string, extra: Record<string, string> = {}) =>
    execFileSync('bash', ['-euo', 'pipefail', '-c', script], { cwd, env: { ...env, ...extra }, stdio: 'pipe' });
  return {
    dir,
    scratch: root,
    env,
    installPnpm(line: string) {
      bash(line, root, { npm_config_prefix: prefix });
      env.PATH = `${join(prefix, 'bin')}:${env.PATH}`;
    },
    checkOut(setUp: string) {
      // What a commit of this tree would hold: tracked and new files, never ignored ones.
      const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
      })
        .split('\0')
        .filter((file) => file && existsSync(join(REPO_ROOT, file)));
      for (const file of new Set([...files, ...ignoredInputs()])) {
        mkdirSync(dirname(join(dir, file)), { recursive: true });
        copyFileSync(join(REPO_ROOT, file), join(dir, file));
      }
      // Turbo hashes a package's files through git: the copy is a repository of one commit, so its
      // tasks have this tree's hashes, and this run's cache (its builds and lints) answers them.
      bash(
        'git init -q && git add -A && git -c user.name=reader -c user.email=reader@example.com commit -qm checkout',
        dir,
      );
      const cache = process.env.TURBO_CACHE_DIR ?? join(REPO_ROOT, '.turbo', 'cache');
      if (existsSync(cache)) {
        mkdirSync(join(dir, '.turbo'));
        try {
          // Hard links: an entry is written once under its hash and never changed.
          execFileSync('cp', ['-al', cache, join(dir, '.turbo', 'cache')], { stdio: 'pipe' });
        } catch {
          cpSync(cache, join(dir, '.turbo', 'cache'), { recursive: true });
        }
      }
      bash(setUp, dir);
    },
    remove() {
      return rm(root, { recursive: true, force: true });
    },
  };
}
