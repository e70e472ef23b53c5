// `pnpm release:dry`: shows what a release would publish without touching the repository.
// It copies the repository (tracked and untracked files, plus the built dist/ folders) to a
// throwaway folder, runs `changeset version` there, and `pnpm publish --dry-run` per package.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const appDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = join(appDir, '..', '..');
const exec = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
// pnpm sets npm_execpath for its scripts; this script is meant to run as `pnpm release:dry`.
const pnpmBin = () => {
  if (!process.env.npm_execpath?.includes('pnpm')) throw new Error('run this as `pnpm release:dry` (it needs the pinned pnpm)');
  return process.env.npm_execpath;
};
const pnpm = (args, cwd) => exec(process.execPath, [pnpmBin(), ...args], cwd);

const copyDir = mkdtempSync(join(tmpdir(), 'forms-release-dry-'));
try {
  const files = exec('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], repoDir).split('\0').filter(Boolean);
  for (const file of files) {
    if (!existsSync(join(repoDir, file))) continue;
    mkdirSync(dirname(join(copyDir, file)), { recursive: true });
    cpSync(join(repoDir, file), join(copyDir, file));
  }
  const packageDirs = ['spec', ...exec('ls', ['packages'], repoDir).trim().split('\n').map((d) => `packages/${d}`)];
  const before = Object.fromEntries(packageDirs.map((d) => [d, JSON.parse(readFileSync(join(repoDir, d, 'package.json'), 'utf8'))]));
  for (const dir of packageDirs) {
    if (!existsSync(join(repoDir, dir, 'dist'))) throw new Error(`${dir}/dist is missing: run \`pnpm build\` first`);
    cpSync(join(repoDir, dir, 'dist'), join(copyDir, dir, 'dist'), { recursive: true });
  }

  // pnpm publish rewrites workspace: ranges from the installed links, so the copy is installed
  // from the local store (offline: nothing is fetched).
  pnpm(['install', '--offline', '--ignore-scripts', '--no-frozen-lockfile'], copyDir);
  console.log('== changeset version (on a throwaway copy)');
  console.log(exec(join(appDir, 'node_modules', '.bin', 'changeset'), ['version'], copyDir));

  for (const dir of packageDirs) {
    const manifest = JSON.parse(readFileSync(join(copyDir, dir, 'package.json'), 'utf8'));
    if (manifest.private) continue;
    const was = before[dir].version;
    console.log(`\n== ${manifest.name}: ${was} -> ${manifest.version}${was === manifest.version ? ' (no changeset: not released)' : ''}`);
    const changelog = join(copyDir, dir, 'CHANGELOG.md');
    if (existsSync(changelog)) console.log(readFileSync(changelog, 'utf8').split('\n').slice(0, 12).join('\n'));
    if (was === manifest.version) continue;
    // npm-style publish notices (the tarball's files and size) go to stderr: show both streams.
    const publish = spawnSync(process.execPath, [pnpmBin(), 'publish', '--dry-run', '--no-git-checks', '--access', 'public'], { cwd: join(copyDir, dir), encoding: 'utf8' });
    console.log(`${publish.stdout}${publish.stderr}`.trim());
    if (publish.status !== 0) throw new Error(`pnpm publish --dry-run failed for ${manifest.name}`);
  }
} finally {
  rmSync(copyDir, { recursive: true, force: true });
}
