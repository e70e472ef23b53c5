// A release as it would happen, into a local registry: `changeset version` and `changeset publish`
// in a throwaway copy of the repository (see workspace-copy.mjs), to an empty Verdaccio from
// @forms-api/local-registry. Consumers then install the packages by version, as after a release.
import { execFileSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { startRegistry } from '@forms-api/local-registry';
import { appDir, versionedCopy } from './workspace-copy.mjs';

/** Versions and publishes every published package; resolves to the registry and what it now holds. */
export async function releaseToLocalRegistry() {
  const release = versionedCopy();
  let registry;
  try {
    registry = await startRegistry();
    appendFileSync(join(release.copyDir, '.npmrc'), `\n${registry.publishNpmrc}`);
    const output = execFileSync(join(appDir, 'node_modules', '.bin', 'changeset'), ['publish', '--no-git-tag'], {
      cwd: release.copyDir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    for (const pkg of release.packages) {
      // The registry's document of the package (what `npm view` reads) lists every published version.
      const answer = await fetch(new URL(pkg.name.replace('/', '%2f'), registry.url));
      const versions = answer.ok ? Object.keys((await answer.json()).versions ?? {}) : [];
      if (!versions.includes(pkg.version))
        throw new Error(`changeset publish did not publish ${pkg.name}@${pkg.version}:\n${output}`);
    }
    return {
      url: registry.url,
      npmrc: registry.npmrc,
      packages: release.packages,
      publishOutput: output,
      close: async () => {
        release.remove();
        await registry.close();
      },
    };
  } catch (error) {
    release.remove();
    await registry?.close();
    throw new Error(
      `the release into the local registry failed: ${error.message}${error.stderr ? `\n${error.stderr}` : ''}${error.stdout ? `\n${error.stdout}` : ''}${registry ? `\n${registry.log()}` : ''}`,
    );
  }
}
