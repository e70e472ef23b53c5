// Reads the pending changesets (.changeset/*.md): the YAML frontmatter of each maps package
// names to bumps. Only the bumps matter to the guard, so the summary text is ignored.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

export type Bump = 'major' | 'minor' | 'patch' | 'none';

export interface Changeset {
  file: string;
  releases: Record<string, Bump>;
}

export interface ChangesetError {
  kind: 'changeset_invalid';
  file: string;
  message: string;
}

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/;
const BUMPS = new Set(['major', 'minor', 'patch', 'none']);

export function parseChangeset(file: string, text: string): Changeset | ChangesetError {
  const match = FRONTMATTER.exec(text.trimStart());
  if (!match) return { kind: 'changeset_invalid', file, message: 'no --- frontmatter --- block at the top' };
  let data: unknown;
  try {
    data = parse(match[1]!) ?? {};
  } catch (err) {
    return { kind: 'changeset_invalid', file, message: `frontmatter is not YAML: ${(err as Error).message}` };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { kind: 'changeset_invalid', file, message: 'frontmatter must map package names to bumps' };
  }
  const releases: Record<string, Bump> = {};
  for (const [name, bump] of Object.entries(data)) {
    if (typeof bump !== 'string' || !BUMPS.has(bump)) {
      return {
        kind: 'changeset_invalid',
        file,
        message: `"${name}": bump must be major, minor, patch or none, got ${JSON.stringify(bump)}`,
      };
    }
    releases[name] = bump as Bump;
  }
  return { file, releases };
}

/** Every changeset of the folder; README.md (the folder's own doc) is not one. */
export function readChangesets(dir: string): { changesets: Changeset[]; errors: ChangesetError[] } {
  const changesets: Changeset[] = [];
  const errors: ChangesetError[] = [];
  let files: string[] = [];
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.md') && f.toLowerCase() !== 'readme.md')
      .sort();
  } catch {
    return { changesets, errors };
  }
  for (const file of files) {
    const parsed = parseChangeset(file, readFileSync(join(dir, file), 'utf8'));
    if ('kind' in parsed) errors.push(parsed);
    else changesets.push(parsed);
  }
  return { changesets, errors };
}

export function packagesWithMajor(changesets: Changeset[]): Set<string> {
  return new Set(
    changesets.flatMap((c) =>
      Object.entries(c.releases)
        .filter(([, bump]) => bump === 'major')
        .map(([name]) => name),
    ),
  );
}
