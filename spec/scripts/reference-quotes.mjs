// Checks the ledger's quotes of the service's own published reference (`referenceDrift`) against the
// reference itself, in a local git copy of the upstream repository: each quote must stand on the
// line it cites, at the cited commit. The spec's tests cannot read that repository (CI has no copy
// and no network; the ledger keeps nothing of the reference but the quotes), so whoever writes or
// updates an entry runs this:  node scripts/reference-quotes.mjs <git directory of OpnForm/OpnForm>
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** Runs of white space as one space: a Markdown table pads its cells, a quote need not. */
const collapsed = (text) => text.replace(/\s+/g, ' ').trim();

/**
 * The problems of the ledger's reference quotes, one sentence each (none: every quote is where it
 * says). `readFile(commit, path)` gives a file's text at a commit, or undefined when it has none.
 */
export function referenceQuoteProblems(ledger, readFile) {
  const problems = [];
  for (const entry of ledger.referenceDrift ?? []) {
    for (const q of entry.referenceQuotes) {
      const where = `${entry.id}: ${q.path}:${q.line}`;
      const text = readFile(q.commit, q.path);
      if (text === undefined) {
        problems.push(`${where}: no such file at ${q.commit.slice(0, 8)}`);
        continue;
      }
      const line = text.split('\n')[q.line - 1];
      if (line === undefined) problems.push(`${where}: the file has fewer lines`);
      else if (!collapsed(line).includes(collapsed(q.quote)))
        problems.push(`${where}: the line does not hold the quote ${JSON.stringify(q.quote)}`);
    }
  }
  return problems;
}

/** A file's text at a commit of the git directory `gitDir`, or undefined when the commit has no such file. */
export function gitFileReader(gitDir) {
  return (commit, path) => {
    try {
      return execFileSync('git', ['--git-dir', gitDir, 'show', `${commit}:${path}`], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
    } catch {
      return undefined;
    }
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const gitDir = process.argv[2];
  if (!gitDir) {
    console.error('usage: node scripts/reference-quotes.mjs <git directory of the upstream repository>');
    process.exit(2);
  }
  const ledger = parse(readFileSync(join(fileURLToPath(new URL('..', import.meta.url)), 'drift.yaml'), 'utf8'));
  const problems = referenceQuoteProblems(ledger, gitFileReader(gitDir));
  const count = (ledger.referenceDrift ?? []).reduce((n, e) => n + e.referenceQuotes.length, 0);
  for (const problem of problems) console.error(problem);
  console.log(`${count - problems.length} of ${count} reference quotes stand on the lines they cite.`);
  process.exitCode = problems.length > 0 ? 1 : 0;
}
