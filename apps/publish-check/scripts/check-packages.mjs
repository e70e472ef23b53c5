// Packs every published package the way `pnpm publish` would and lints the tarball with publint
// and attw; then releases them into a local registry (`changeset version` and `changeset
// publish` in a throwaway copy) and installs them BY VERSION into a consumer project, as a user
// would after a release: it checks what the registry served (LICENSE, CHANGELOG, README links
// that work on a registry's page), runs the project's ES module and CommonJS files and
// type-checks its TypeScript under node16 and bundler resolution.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pnpm } from '@forms-api/test-support';
import { releaseToLocalRegistry } from './release-to-local-registry.mjs';
import { privateReferences } from './private-references.mjs';
import { readmeLinkProblems } from './readme-links.mjs';

const appDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = join(appDir, '..', '..');
const bin = (name) => join(appDir, 'node_modules', '.bin', name);

/**
 * The oldest Node the tests run on: @forms-api/runtimes' Node 20 (each package's runtime-sensitive
 * files run on it). A lower floor would be a promise no test keeps: the client on Node 20.0 to
 * 20.2 has no AbortSignal.any, and a call given a signal failed as "could not reach" the service.
 */
const TESTED_NODE_FLOOR = /@(\d+\.\d+\.\d+)$/.exec(
  JSON.parse(readFileSync(join(repoDir, 'tools', 'runtimes', 'package.json'), 'utf8')).dependencies.node20,
)[1];
const run = (cmd, args, cwd, quiet = false) =>
  execFileSync(cmd, args, {
    cwd,
    stdio: quiet ? 'pipe' : 'inherit',
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });

/** Every workspace package (pnpm-workspace.yaml: spec, packages/*, apps/*, tools/*) with its manifest. */
function workspacePackages() {
  const inside = (group) => readdirSync(join(repoDir, group)).map((d) => join(repoDir, group, d));
  const dirs = [join(repoDir, 'spec'), ...inside('packages'), ...inside('apps'), ...inside('tools')];
  return dirs
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }));
}

/** Publishable packages: every workspace package that is not private, keyed by consumer name. */
function publishablePackages() {
  return workspacePackages()
    .filter(({ manifest }) => !manifest.private)
    .map(({ dir, manifest }) => ({
      dir,
      manifest,
      name: manifest.name,
      short: manifest.name.replace('@forms-api/', ''),
    }));
}

const failures = [];
/** Seconds since `started`, printed with each passed step: where the check spends its time. */
const took = (started) => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const step = (label, fn) => {
  process.stdout.write(`\n== ${label}\n`);
  const started = performance.now();
  try {
    fn();
    console.log(`ok: ${label} (${took(started)})`);
  } catch (error) {
    failures.push(label);
    console.error(
      `FAILED: ${label}\n${error.stdout ?? ''}${error.stderr ?? ''}${error.stdout || error.stderr ? '' : error.message}`,
    );
  }
};

const stepAsync = async (label, fn) => {
  process.stdout.write(`\n== ${label}\n`);
  const started = performance.now();
  try {
    await fn();
    console.log(`ok: ${label} (${took(started)})`);
  } catch (error) {
    failures.push(label);
    console.error(`FAILED: ${label}\n${error.message}`);
  }
};

const packages = publishablePackages();
/** Never published (`@forms-api/internal`, the tools): a build inlines what it uses of them. */
const privateNames = workspacePackages()
  .filter(({ manifest }) => manifest.private)
  .map(({ manifest }) => manifest.name);
const workDir = mkdtempSync(join(tmpdir(), 'forms-publish-check-'));
const tarballs = {};
/** The local registry the packages are released into, once they are. */
let release;
try {
  for (const pkg of packages) {
    step(`${pkg.name}: pnpm pack`, () => {
      const out = pnpm(['pack', '--pack-destination', workDir], { cwd: pkg.dir });
      const file = out.trim().split('\n').pop().trim();
      tarballs[pkg.name] = file.startsWith('/') ? file : join(workDir, basename(file));
      if (!existsSync(tarballs[pkg.name])) throw new Error(`pack produced no tarball (${out})`);
    });
    // What was packed, unpacked: the tarball's `package/` folder, which the checks below read.
    const unpacked = join(workDir, `unpacked-${pkg.short}`);
    const packed = join(unpacked, 'package');
    // publint lints exactly what was packed.
    step(`${pkg.name}: publint`, () => {
      run('mkdir', ['-p', unpacked], workDir);
      run('tar', ['-xzf', tarballs[pkg.name], '-C', unpacked], workDir);
      run(bin('publint'), ['run', packed, '--strict', '--pack', 'false'], workDir);
    });
    step(`${pkg.name}: no packed file imports a private workspace package`, () => {
      const problems = privateReferences(packed, privateNames);
      if (problems.length > 0) throw new Error(problems.join('\n'));
    });
    step(`${pkg.name}: engines.node starts at the oldest Node it is tested on (${TESTED_NODE_FLOOR})`, () =>
      checkNodeFloor(packed),
    );
    if (pkg.manifest.bin) step(`${pkg.name}: its bins start with a node shebang`, () => checkShebangs(pkg, packed));
    // A package that is only a command (a bin, no entry point to import) has no types to check.
    if (!hasEntryPoints(pkg))
      console.log(`\n== ${pkg.name}: attw skipped, the package is only a command (no exports to type)`);
    else
      // The tarball pnpm packed above: what is published, without packing it a second time.
      step(`${pkg.name}: attw on the packed tarball`, () =>
        run(bin('attw'), [tarballs[pkg.name], '--format', 'table-flipped', ...attwOptions(pkg)], pkg.dir),
      );
  }

  await stepAsync('release into a local registry: changeset version, changeset publish', async () => {
    release = await releaseToLocalRegistry();
    console.log(
      release.packages.map((p) => `${p.name}@${p.version}${p.was !== p.version ? ` (was ${p.was})` : ''}`).join('\n'),
    );
  });
  // One consumer project, installed once by version from the registry, as a user would after a
  // release: it depends on every released package (the @forms-api scope from the local registry,
  // everything else from npm's usual registry). What npm installed is what the registry serves:
  // each package's files are checked there. Then each .mjs file runs as an ES module and each .cjs
  // file as CommonJS (the extension decides), and the .ts files are type-checked under each module
  // resolution (tsconfig.<resolution>.json, node/tsconfig.<resolution>.json for a Node user's
  // files): the same user code must compile under every one.
  const source = join(appDir, 'consumers');
  const project = join(workDir, 'consumer');
  let installed = false;
  if (release)
    step(`consumer: ${release.packages.length} packages installed by version from the registry`, () => {
      cpSync(source, project, { recursive: true });
      const deps = Object.fromEntries(release.packages.map((p) => [p.name, p.version]));
      const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
      writeFileSync(join(project, 'package.json'), JSON.stringify({ ...manifest, dependencies: deps }, null, 2));
      writeFileSync(join(project, '.npmrc'), release.npmrc);
      run(
        'npm',
        [
          'install',
          '--no-audit',
          '--no-fund',
          '--loglevel=error',
          '--prefer-online',
          '--omit-lockfile-registry-resolved=false',
        ],
        project,
        true,
      );
      // Installed from the registry, by version: no tarball path, no workspace link.
      const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8'));
      for (const [path, entry] of Object.entries(lock.packages ?? {})) {
        // Ours: the last folder of the path is ours (a dependency nested below one of ours is npm's).
        if (!/node_modules\/@forms-api\/[^/]+$/.test(path)) continue;
        if (!String(entry.resolved ?? '').startsWith(release.url))
          throw new Error(`${path} was not installed from the local registry (${entry.resolved})`);
      }
      installed = true;
    });

  const rootLicense = readFileSync(join(repoDir, 'LICENSE'), 'utf8');
  for (const pkg of installed ? release.packages : []) {
    step(`${pkg.name}@${pkg.version} from the registry: LICENSE, CHANGELOG, README links`, () => {
      const root = join(project, 'node_modules', pkg.name);
      const problems = [];
      if (!existsSync(join(root, 'LICENSE')))
        problems.push('no LICENSE in the tarball (add "LICENSE" to "files" and the file to the package)');
      else if (readFileSync(join(root, 'LICENSE'), 'utf8') !== rootLicense)
        problems.push("its LICENSE differs from the repository's");
      const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
      if (manifest.version !== pkg.version) problems.push(`npm installed ${manifest.version}, not ${pkg.version}`);
      if (manifest.license !== 'MIT')
        problems.push(`"license" is ${JSON.stringify(manifest.license)}, not "MIT" as the LICENSE file`);
      // A package versioned by this release has a changelog entry, and the tarball must carry it.
      if (pkg.was !== pkg.version && !existsSync(join(root, 'CHANGELOG.md')))
        problems.push('versioned, yet no CHANGELOG.md in the tarball (add "CHANGELOG.md" to "files")');
      problems.push(...readmeLinkProblems(readFileSync(join(root, 'README.md'), 'utf8')));
      if (problems.length > 0) throw new Error(problems.join('\n'));
    });
  }

  // The .ts files at the top are a user's who has no @types/node (a browser, a worker, Deno): the
  // entries that promise to need none. Those in node/ are a Node user's, with @types/node,
  // Express and Fastify installed (the project's devDependencies).
  const consumerFiles = readdirSync(source);
  const entries = consumerFiles.filter((f) => packages.some((p) => f.startsWith(`${p.short}.`)));
  const runs = entries.filter((f) => /\.[cm]js$/.test(f));
  const allFiles = [...consumerFiles, ...readdirSync(join(source, 'node')).map((f) => join('node', f))];
  const typed = allFiles.filter((f) => f.endsWith('.ts'));
  const tsconfigs = allFiles.filter((f) => /(^|\/)tsconfig\..+\.json$/.test(f));
  if (installed) {
    step(`consumer: run ${runs.join(', ')}`, () => {
      for (const entry of runs) run(process.execPath, [entry], project);
    });
    step(`consumer: type-check under ${tsconfigs.join(', ')}: ${typed.join(', ')}`, () => {
      for (const tsconfig of tsconfigs) run(bin('tsc'), ['-p', tsconfig], project);
    });
  }
} finally {
  await release?.close();
  rmSync(workDir, { recursive: true, force: true });
}

/** The packed manifest's engines.node must be `>=` the tested floor, exactly. */
function checkNodeFloor(packed) {
  const claimed = JSON.parse(readFileSync(join(packed, 'package.json'), 'utf8')).engines?.node;
  if (claimed !== `>=${TESTED_NODE_FLOOR}`)
    throw new Error(
      `engines.node is ${JSON.stringify(claimed)}; set it to ">=${TESTED_NODE_FLOOR}", the oldest Node the tests run on (tools/runtimes), or test the older Node there first`,
    );
}

/** npm links each bin as it is; without `#!/usr/bin/env node` the shell would run JavaScript as a script. */
function checkShebangs(pkg, unpacked) {
  const bins = typeof pkg.manifest.bin === 'string' ? { [pkg.short]: pkg.manifest.bin } : pkg.manifest.bin;
  for (const [name, file] of Object.entries(bins)) {
    const path = join(unpacked, file);
    if (!existsSync(path))
      throw new Error(`bin ${name}: ${file} is not in the tarball (is it built, and listed in "files"?)`);
    const first = readFileSync(path, 'utf8').split('\n', 1)[0];
    if (first !== '#!/usr/bin/env node')
      throw new Error(`bin ${name}: ${file} starts with ${JSON.stringify(first)}, not #!/usr/bin/env node`);
  }
}

function hasEntryPoints(pkg) {
  const { manifest } = pkg;
  return manifest.exports !== undefined || manifest.main !== undefined || manifest.types !== undefined;
}

// The spec package ships JSON documents and an ESM-only validator: no CommonJS entry point to
// resolve there, which attw would otherwise report for every JSON subpath. A package whose exports
// name no `require` condition ships ESM only on purpose (the sandbox: a test-setup tool for
// Node >= 20.19, where require() loads ES modules; the cjs consumer proves it): it is held to the
// ESM resolutions. Subpath exports cannot resolve under node10 (pre-`exports` resolution) unless
// the package maps them in `typesVersions`: a package that does is checked under node10 too; the
// others are held to node16+.
function attwOptions(pkg) {
  if (pkg.short === 'spec')
    return ['--profile', 'esm-only', '--exclude-entrypoints', './openapi.yaml', './openapi.observed.yaml'];
  const { manifest } = pkg;
  if (manifest.type === 'module' && !JSON.stringify(manifest.exports ?? {}).includes('"require"'))
    return ['--profile', 'esm-only'];
  const subpaths = Object.keys(manifest.exports ?? {}).filter((k) => k !== '.' && k !== './package.json');
  return subpaths.length > 0 && !manifest.typesVersions ? ['--profile', 'node16'] : [];
}

console.log(
  `\n${packages.length} packages checked; ${failures.length === 0 ? 'all checks passed' : `${failures.length} failed:\n- ${failures.join('\n- ')}`}`,
);
process.exitCode = failures.length === 0 ? 0 : 1;
