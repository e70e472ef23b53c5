// Packs every published package the way `pnpm publish` would, lints each with publint and
// `attw --pack`, then installs the tarballs into small consumer projects (ESM, CommonJS,
// TypeScript node16, TypeScript bundler) and runs or type-checks them, as a user would.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const appDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = join(appDir, '..', '..');
const bin = (name) => join(appDir, 'node_modules', '.bin', name);
const run = (cmd, args, cwd, quiet = false) =>
  execFileSync(cmd, args, { cwd, stdio: quiet ? 'pipe' : 'inherit', encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });

/** Publishable packages: every workspace package that is not private, keyed by consumer name. */
function publishablePackages() {
  const inside = (group) => readdirSync(join(repoDir, group)).map((d) => join(repoDir, group, d));
  const dirs = [join(repoDir, 'spec'), ...inside('packages'), ...inside('apps')];
  return dirs
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
    .filter(({ manifest }) => !manifest.private)
    .map(({ dir, manifest }) => ({ dir, manifest, name: manifest.name, short: manifest.name.replace('@forms-api/', '') }));
}

// pnpm sets npm_execpath for its scripts; outside pnpm, fall back to the pinned release via npx.
const pnpm = (args, cwd) =>
  process.env.npm_execpath?.includes('pnpm')
    ? run(process.execPath, [process.env.npm_execpath, ...args], cwd, true)
    : run('npx', ['--yes', 'pnpm@10.34.8', ...args], cwd, true);

const failures = [];
const step = (label, fn) => {
  process.stdout.write(`\n== ${label}\n`);
  try {
    fn();
    console.log(`ok: ${label}`);
  } catch (error) {
    failures.push(label);
    console.error(`FAILED: ${label}\n${error.stdout ?? ''}${error.stderr ?? ''}${error.stdout || error.stderr ? '' : error.message}`);
  }
};

const packages = publishablePackages();
const workDir = mkdtempSync(join(tmpdir(), 'forms-publish-check-'));
const tarballs = {};
try {
  for (const pkg of packages) {
    step(`${pkg.name}: pnpm pack`, () => {
      const out = pnpm(['pack', '--pack-destination', workDir], pkg.dir);
      const file = out.trim().split('\n').pop().trim();
      tarballs[pkg.name] = file.startsWith('/') ? file : join(workDir, basename(file));
      if (!existsSync(tarballs[pkg.name])) throw new Error(`pack produced no tarball (${out})`);
    });
    // publint lints exactly what was packed: the tarball, unpacked.
    step(`${pkg.name}: publint`, () => {
      const unpacked = join(workDir, `unpacked-${pkg.short}`);
      run('mkdir', ['-p', unpacked], workDir);
      run('tar', ['-xzf', tarballs[pkg.name], '-C', unpacked], workDir);
      run(bin('publint'), ['run', join(unpacked, 'package'), '--strict', '--pack', 'false'], workDir);
    });
    if (pkg.manifest.bin) step(`${pkg.name}: its bins start with a node shebang`, () => checkShebangs(pkg, join(workDir, `unpacked-${pkg.short}`, 'package')));
    // A package that is only a command (a bin, no entry point to import) has no types to check.
    if (!hasEntryPoints(pkg)) console.log(`\n== ${pkg.name}: attw skipped, the package is only a command (no exports to type)`);
    else step(`${pkg.name}: attw --pack`, () => run(bin('attw'), ['--pack', '.', '--format', 'table-flipped', ...attwOptions(pkg)], pkg.dir));
  }

  const tsSources = join(appDir, 'consumers', 'ts-sources');
  for (const kind of readdirSync(join(appDir, 'consumers')).filter((k) => k !== 'ts-sources')) {
    const source = join(appDir, 'consumers', kind);
    // TypeScript consumers share one set of sources, compiled under each module resolution.
    const sourceFiles = kind.startsWith('ts-') ? readdirSync(tsSources) : readdirSync(source);
    const entries = sourceFiles.filter((f) => packages.some((p) => f.startsWith(`${p.short}.`)));
    if (entries.length === 0) continue;
    step(`consumer ${kind}: install the tarballs and use ${entries.join(', ')}`, () => {
      const project = join(workDir, `consumer-${kind}`);
      cpSync(source, project, { recursive: true });
      if (kind.startsWith('ts-')) for (const file of entries) cpSync(join(tsSources, file), join(project, file));
      for (const f of readdirSync(project)) {
        if (/\.(m?c?[jt]s)$/.test(f) && !entries.includes(f) && f !== 'tsconfig.json') rmSync(join(project, f));
      }
      // The project depends on the packages it uses; every workspace package it pulls in comes from its tarball.
      const tarballOf = (p) => [p.name, `file:${tarballs[p.name]}`];
      const deps = Object.fromEntries(packages.filter((p) => entries.some((f) => f.startsWith(`${p.short}.`))).map(tarballOf));
      const overrides = Object.fromEntries(packages.map(tarballOf));
      const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
      writeFileSync(join(project, 'package.json'), JSON.stringify({ ...manifest, dependencies: deps, overrides }, null, 2));
      run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], project, true);
      if (kind.startsWith('ts-')) {
        run(bin('tsc'), ['-p', 'tsconfig.json'], project);
      } else {
        for (const entry of entries) run(process.execPath, [entry], project);
      }
    });
  }
} finally {
  rmSync(workDir, { recursive: true, force: true });
}

/** npm links each bin as it is; without `#!/usr/bin/env node` the shell would run JavaScript as a script. */
function checkShebangs(pkg, unpacked) {
  const bins = typeof pkg.manifest.bin === 'string' ? { [pkg.short]: pkg.manifest.bin } : pkg.manifest.bin;
  for (const [name, file] of Object.entries(bins)) {
    const path = join(unpacked, file);
    if (!existsSync(path)) throw new Error(`bin ${name}: ${file} is not in the tarball (is it built, and listed in "files"?)`);
    const first = readFileSync(path, 'utf8').split('\n', 1)[0];
    if (first !== '#!/usr/bin/env node') throw new Error(`bin ${name}: ${file} starts with ${JSON.stringify(first)}, not #!/usr/bin/env node`);
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
  if (pkg.short === 'spec') return ['--profile', 'esm-only', '--exclude-entrypoints', './openapi.yaml'];
  const { manifest } = pkg;
  if (manifest.type === 'module' && !JSON.stringify(manifest.exports ?? {}).includes('"require"')) return ['--profile', 'esm-only'];
  const subpaths = Object.keys(manifest.exports ?? {}).filter((k) => k !== '.' && k !== './package.json');
  return subpaths.length > 0 && !manifest.typesVersions ? ['--profile', 'node16'] : [];
}

console.log(`\n${packages.length} packages checked; ${failures.length === 0 ? 'all checks passed' : `${failures.length} failed:\n- ${failures.join('\n- ')}`}`);
process.exitCode = failures.length === 0 ? 0 : 1;
