// A private workspace package (`@forms-api/internal`, the test support, the tools) is never
// published: a packed module that still imports one fails for every user. Builds inline them; this
// finds any specifier a tarball's code or declarations still name, and any run-time dependency on
// one in its package.json. Prose may name them (a README's development notes).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const CODE = /\.[cm]?[jt]sx?$/;
const RUN_TIME_DEPENDENCIES = ['dependencies', 'peerDependencies', 'optionalDependencies', 'bundleDependencies'];

/** One message per reference to a package in `privateNames` below the unpacked tarball `root`. */
export function privateReferences(root, privateNames) {
  const escaped = privateNames.map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  // A module specifier: the name in quotes, alone or with a subpath (`import … from '@x/y/z'`, `require("@x/y")`).
  const specifier = new RegExp(`['"\`](${escaped.join('|')})(?:/[^'"\`]*)?['"\`]`);
  const problems = [];
  for (const path of filesBelow(root)) {
    const file = relative(root, path);
    if (file === 'package.json') {
      // devDependencies are not installed with the package: only what a user's install would fetch.
      const manifest = JSON.parse(readFileSync(path, 'utf8'));
      for (const field of RUN_TIME_DEPENDENCIES)
        for (const name of Object.keys(manifest[field] ?? {}))
          if (privateNames.includes(name)) problems.push(`package.json lists the private ${name} in "${field}"`);
      continue;
    }
    if (!CODE.test(file)) continue;
    const text = readFileSync(path, 'utf8');
    const match = specifier.exec(text);
    if (match)
      problems.push(
        `${file} references the private ${match[1]} (line ${text.slice(0, match.index).split('\n').length}): inline it in the build (noExternal, dts.resolve)`,
      );
  }
  return problems;
}

function filesBelow(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesBelow(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}
