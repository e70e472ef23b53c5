// `pnpm release:dry`: shows what a release would publish without touching the repository: in a
// throwaway copy (workspace-copy.mjs) it runs `changeset version`, then prints each published
// package's version change, the changelog entry of the new version, and `pnpm publish --dry-run`
// (the tarball's files and size).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { versionedCopy } from './workspace-copy.mjs';

if (!process.env.npm_execpath?.includes('pnpm')) {
  console.error('release:dry: run this as `pnpm release:dry` (it needs the pinned pnpm)');
  process.exit(2);
}

/** The changelog's section of `version`: from its `## version` heading to the next one. */
export function changelogEntry(changelog, version) {
  const lines = changelog.split('\n');
  const start = lines.findIndex((l) => l.trim() === `## ${version}`);
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  return lines
    .slice(start, end < 0 ? undefined : end)
    .join('\n')
    .trim();
}

const release = versionedCopy();
try {
  console.log('== changeset version (on a throwaway copy)');
  console.log(release.versionOutput);
  const released = release.packages.filter((p) => p.was !== p.version);
  console.log(`== ${released.length} of ${release.packages.length} packages would be released`);
  for (const pkg of release.packages) {
    console.log(
      `\n== ${pkg.name}: ${pkg.was} -> ${pkg.version}${pkg.was === pkg.version ? ' (no changeset: not released)' : ''}`,
    );
    if (pkg.was === pkg.version) continue;
    const changelog = join(release.copyDir, pkg.dir, 'CHANGELOG.md');
    const entry = existsSync(changelog) ? changelogEntry(readFileSync(changelog, 'utf8'), pkg.version) : undefined;
    console.log(entry ?? `(no CHANGELOG.md entry for ${pkg.version})`);
    // npm-style publish notices (the tarball's files and size) go to stderr: show both streams.
    const publish = spawnSync(
      process.execPath,
      [process.env.npm_execpath, 'publish', '--dry-run', '--no-git-checks', '--access', 'public'],
      { cwd: join(release.copyDir, pkg.dir), encoding: 'utf8' },
    );
    console.log(`${publish.stdout}${publish.stderr}`.trim());
    if (publish.status !== 0) throw new Error(`pnpm publish --dry-run failed for ${pkg.name}`);
  }
} finally {
  release.remove();
}
