// `pnpm lint`'s check that a fresh `pnpm install` is quiet: every workspace bin is a committed file
// with a shebang (pnpm links bins at install time, before any build, and warns about each missing
// target) that says to build when its dist/ file is missing, and every dependency's build script is
// either allowed or ignored on purpose.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pnpm } from '@forms-api/test-support';

const repoDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** Every workspace package directory (the globs of pnpm-workspace.yaml: spec, packages/*, apps/*, tools/*). */
function workspaceDirs() {
  const inside = (group) => readdirSync(join(repoDir, group)).map((d) => join(repoDir, group, d));
  return [join(repoDir, 'spec'), ...inside('packages'), ...inside('apps'), ...inside('tools')].filter((dir) =>
    existsSync(join(dir, 'package.json')),
  );
}

/** Problems with bins: a target that is not committed (e.g. in `dist/`) or does not start with a shebang. */
export function binProblems() {
  const committed = new Set(execFileSync('git', ['ls-files'], { cwd: repoDir, encoding: 'utf8' }).split('\n'));
  const problems = [];
  for (const dir of workspaceDirs()) {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    if (!manifest.bin) continue;
    const bins =
      typeof manifest.bin === 'string' ? { [manifest.name.replace(/^@[^/]+\//, '')]: manifest.bin } : manifest.bin;
    for (const [name, target] of Object.entries(bins)) {
      const file = relative(repoDir, join(dir, target));
      if (!committed.has(file)) {
        problems.push(
          `${manifest.name}: bin ${name} points at ${file}, which is not a committed file; pnpm cannot link it on a fresh install before the build. Point it at a committed launcher (bin/${name}.js) that imports the built file.`,
        );
      } else if (!readFileSync(join(repoDir, file), 'utf8').startsWith('#!')) {
        problems.push(`${manifest.name}: bin ${name} (${file}) has no shebang line; add #!/usr/bin/env node.`);
      }
    }
  }
  return problems;
}

/**
 * Problems with launchers (a committed bin that imports `../dist/…`), each run from a copy in a
 * temporary folder: before the build it must say which file is missing and to run `pnpm build`
 * (exit 1); once built it must run the built file with the arguments; a module the built file
 * lacks must surface as that failure, not as the launcher's hint.
 */
export function launcherProblems() {
  const problems = [];
  for (const dir of workspaceDirs()) {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const bins = typeof manifest.bin === 'string' ? { bin: manifest.bin } : (manifest.bin ?? {});
    for (const [name, target] of Object.entries(bins)) {
      const launcher = join(dir, target);
      const built = existsSync(launcher) && /['"`]\.\.\/(dist\/[^'"`]+)['"`]/.exec(readFileSync(launcher, 'utf8'))?.[1];
      if (!built) continue;
      const copy = mkdtempSync(join(tmpdir(), 'launcher-'));
      try {
        writeFileSync(join(copy, 'package.json'), JSON.stringify({ type: manifest.type ?? 'commonjs' }));
        mkdirSync(join(copy, dirname(target)), { recursive: true });
        cpSync(launcher, join(copy, target));
        const run = () =>
          spawnSync(process.execPath, [join(copy, target), 'first', '--second'], { encoding: 'utf8', timeout: 30_000 });
        const say = (problem) =>
          problems.push(`${manifest.name}: bin ${name} (${relative(repoDir, launcher)}) ${problem}`);

        const before = run();
        const hint = `${join(copy, built)} does not exist yet; run \`pnpm build\` first.`;
        if (before.status !== 1 || !before.stderr.includes(hint) || before.stderr.includes('    at '))
          say(
            `before the build should exit 1 saying "${basename(built)} does not exist yet; run \`pnpm build\` first." without a stack; it exited ${before.status}: ${before.stderr.trim()}`,
          );

        mkdirSync(join(copy, dirname(built)), { recursive: true });
        writeFileSync(join(copy, built), "console.log(['ran', ...process.argv.slice(2)].join(' '));\n");
        const after = run();
        if (after.status !== 0 || after.stdout.trim() !== 'ran first --second')
          say(
            `once built should run ${built} with the arguments; it exited ${after.status}: ${after.stdout}${after.stderr}`,
          );

        writeFileSync(join(copy, built), "import './missing-module-of-the-build.js';\n");
        const broken = run();
        if (
          broken.status === 0 ||
          broken.stderr.includes('does not exist yet') ||
          !broken.stderr.includes('missing-module-of-the-build')
        )
          say(
            `should report a module the built file lacks as it is, not as "run pnpm build"; it exited ${broken.status}: ${broken.stderr.trim()}`,
          );
      } finally {
        rmSync(copy, { recursive: true, force: true });
      }
    }
  }
  return problems;
}

/** Problems with build scripts: a dependency whose build pnpm skipped without being told to (`pnpm ignored-builds`). */
export function ignoredBuildProblems() {
  if (!existsSync(join(repoDir, 'node_modules', '.modules.yaml')))
    return ['no node_modules: run `pnpm install` first, so that the skipped build scripts can be listed.'];
  const out = pnpm(['ignored-builds'], { cwd: repoDir });
  // An install that skipped nothing records no list, and pnpm then says it "cannot identify as no
  // node_modules found" in this section although node_modules is there (checked above): nothing skipped.
  const section = out.split(/\n\s*\n/).find((block) => block.startsWith('Automatically ignored builds'));
  const names = (section ?? '')
    .split('\n')
    .slice(1)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('hint:') && line !== 'None' && !/no node_modules found/i.test(line));
  return names.map(
    (name) =>
      `${name}: its build script was skipped by default; list it in the root package.json under pnpm.onlyBuiltDependencies if its build is needed, or pnpm.ignoredBuiltDependencies if not.`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = [...binProblems(), ...launcherProblems(), ...ignoredBuildProblems()];
  for (const problem of problems) console.error(`install-noise: ${problem}`);
  if (problems.length > 0) process.exit(1);
  console.log(
    'install-noise: every workspace bin is a committed file with a shebang that says to build when its dist/ file is missing; no build script is skipped unnoticed.',
  );
}
