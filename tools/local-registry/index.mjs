// A local npm registry for tests: Verdaccio (on Node 24 from @forms-api/runtimes: Verdaccio 6.10
// needs Node 22 or later) on a free 127.0.0.1 port with its own storage, holding this workspace's
// packages packed the way `pnpm publish` packs them. Readers' install lines then run as printed
// in a project whose .npmrc sends the @forms-api scope here.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { runtimes } from '@forms-api/runtimes';
import { freePort, pnpm, until } from '@forms-api/test-support';

const require = createRequire(import.meta.url);
const SCOPE = '@forms-api';

/**
 * Verdaccio alone, empty, on a free port: `npmrc` sends the @forms-api scope here, `publishNpmrc`
 * also holds the (ignored) token an anonymous publish needs in npm's and pnpm's eyes.
 */
export async function startRegistry() {
  const root = mkdtempSync(join(tmpdir(), 'local-registry-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const config = join(root, 'config.yaml');
  // Only this workspace's scope lives here; nothing is proxied, so nothing else is ever served.
  writeFileSync(
    config,
    [
      `storage: ${join(root, 'storage')}`,
      'auth:',
      '  htpasswd:',
      `    file: ${join(root, 'htpasswd')}`,
      '    max_users: -1',
      'packages:',
      `  '${SCOPE}/*':`,
      '    access: $all',
      '    publish: $anonymous',
      'server:',
      '  keepAliveTimeout: 0',
      'log: { type: stdout, format: json, level: warn }',
      'web:',
      '  enable: false',
      '',
    ].join('\n'),
  );
  const bin = join(dirname(require.resolve('verdaccio/package.json')), 'bin', 'verdaccio');
  const child = spawn(runtimes['node 24'].command, [bin, '--config', config, '--listen', `127.0.0.1:${port}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let log = '';
  child.stdout.on('data', (chunk) => (log += chunk));
  child.stderr.on('data', (chunk) => (log += chunk));
  const close = async () => {
    process.off('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(root, { recursive: true, force: true });
  };
  try {
    await waitUntilServing(url, child, () => log);
  } catch (error) {
    await close();
    throw error;
  }
  const npmrc = `${SCOPE}:registry=${url}\n`;
  return { url, npmrc, publishNpmrc: `${npmrc}//127.0.0.1:${port}/:_authToken=local\n`, log: () => log, close };
}

/** @param {import('./index.d.mts').LocalRegistryOptions} options */
export async function startLocalRegistry(options) {
  const registry = await startRegistry();
  const root = mkdtempSync(join(tmpdir(), 'local-registry-packed-'));
  try {
    const packed = join(root, 'packed');
    const published = [];
    for (const dir of options.packageDirs) {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      pnpm(['pack', '--pack-destination', packed], { cwd: dir });
      const tarball = readdirSync(packed).find((f) =>
        f.startsWith(`${manifest.name.replace('@', '').replace('/', '-')}-${manifest.version}`),
      );
      if (!tarball) throw new Error(`pnpm pack left no tarball for ${manifest.name}`);
      // An anonymous publish still needs some token in npm's eyes; the registry ignores it.
      const port = new URL(registry.url).port;
      execFileSync(
        'npm',
        [
          'publish',
          join(packed, tarball),
          '--registry',
          registry.url,
          `--//127.0.0.1:${port}/:_authToken=local`,
          '--access',
          'public',
          '--no-git-checks',
        ],
        { stdio: 'pipe', env: { ...process.env, npm_config_update_notifier: 'false' } },
      );
      published.push({ name: manifest.name, version: manifest.version });
    }
    return {
      url: registry.url,
      published,
      npmrc: registry.npmrc,
      close: async () => (rmSync(root, { recursive: true, force: true }), registry.close()),
    };
  } catch (error) {
    const log = registry.log();
    await registry.close();
    rmSync(root, { recursive: true, force: true });
    throw new Error(`the local registry could not be prepared: ${error.message}\n${log}`);
  }
}

async function waitUntilServing(url, child, log) {
  const answers = async () => {
    // An exit is final: fail at once rather than ask a process that is gone.
    if (child.exitCode !== null) throw new Error(`verdaccio exited with ${child.exitCode}`);
    const response = await fetch(`${url}-/ping`).catch(() => undefined); // not listening yet
    return response?.ok;
  };
  try {
    await until(`verdaccio answering at ${url}`, answers, { everyMs: 200 });
  } catch (error) {
    throw new Error(`${error.message}: ${log()}`);
  }
}
