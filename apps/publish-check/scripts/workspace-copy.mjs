// A throwaway copy of the repository to release from: tracked and untracked files, the built
// dist/ of every published package, installed offline from the local store, then versioned with
// `changeset version` there. The repository itself is never modified, whatever changesets exist.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pnpm } from '@forms-api/test-support';

export const appDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const repoDir = join(appDir, '..', '..');
const exec = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** Every workspace package that is published (not private): its folder relative to the root and its manifest. */
export function publishedPackages(root = repoDir) {
  const inside = (group) => readdirSync(join(root, group)).map((d) => join(group, d));
  return ['spec', ...inside('packages'), ...inside('apps')]
    .filter((dir) => existsSync(join(root, dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) }))
    .filter(({ manifest }) => !manifest.private);
}

/**
 * Copies the repository to a temporary folder and runs `changeset version` there. Returns the
 * copy, the packages with their version before and after, and `remove()`.
 */
export function versionedCopy() {
  const copyDir = mkdtempSync(join(tmpdir(), 'forms-release-'));
  try {
    const files = exec('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], repoDir)
      .split('\0')
      .filter(Boolean);
    for (const file of files) {
      if (!existsSync(join(repoDir, file))) continue;
      mkdirSync(dirname(join(copyDir, file)), { recursive: true });
      cpSync(join(repoDir, file), join(copyDir, file));
    }
    const before = publishedPackages(repoDir);
    for (const { dir, manifest } of before) {
      if (!existsSync(join(repoDir, dir, 'dist')))
        throw new Error(`${dir}/dist is missing (${manifest.name}): run \`pnpm build\` first`);
      cpSync(join(repoDir, dir, 'dist'), join(copyDir, dir, 'dist'), { recursive: true });
    }
    // pnpm publish rewrites workspace: ranges from the installed links, so the copy is installed
    // from the local store (offline: nothing is fetched).
    pnpm(['install', '--offline', '--ignore-scripts', '--no-frozen-lockfile'], { cwd: copyDir });
    const versionOutput = exec(join(appDir, 'node_modules', '.bin', 'changeset'), ['version'], copyDir);
    const packages = publishedPackages(copyDir).map(({ dir, manifest }) => ({
      dir,
      name: manifest.name,
      was: before.find((b) => b.dir === dir)?.manifest.version,
      version: manifest.version,
    }));
    return { copyDir, packages, versionOutput, remove: () => rmSync(copyDir, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(copyDir, { recursive: true, force: true });
    throw error;
  }
}
