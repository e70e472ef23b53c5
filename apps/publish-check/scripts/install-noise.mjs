// `pnpm lint`'s check that a fresh `pnpm install` is quiet: every workspace bin is a committed file
// with a shebang (pnpm links bins at install time, before any build, and warns about each missing
// target), and every dependency's build script is either allowed or ignored on purpose.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** Problems with build scripts: a dependency whose build pnpm skipped without being told to (`pnpm ignored-builds`). */
export function ignoredBuildProblems() {
  if (!existsSync(join(repoDir, 'node_modules', '.modules.yaml')))
    return ['no node_modules: run `pnpm install` first, so that the skipped build scripts can be listed.'];
  const out = process.env.npm_execpath?.includes('pnpm')
    ? execFileSync(process.execPath, [process.env.npm_execpath, 'ignored-builds'], { cwd: repoDir, encoding: 'utf8' })
    : execFileSync('npx', ['--yes', 'pnpm@10.34.8', 'ignored-builds'], { cwd: repoDir, encoding: 'utf8' });
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
  const problems = [...binProblems(), ...ignoredBuildProblems()];
  for (const problem of problems) console.error(`install-noise: ${problem}`);
  if (problems.length > 0) process.exit(1);
  console.log(
    'install-noise: every workspace bin is a committed file with a shebang; no build script is skipped unnoticed.',
  );
}
