// npm shows a package's README and its `homepage`, not this repository's tree: every published
// package names one docs address (the guides on the public repository, as there is no hosted
// site), every README link to a guide is an absolute address of a guide that exists, and one
// guide covers running the contract suite against a tenant.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appDir } from '../src/build.ts';

const repoDir = join(appDir, '..', '..');
const json = (file: string) => JSON.parse(readFileSync(join(repoDir, file), 'utf8'));
const published = ['spec', 'packages/types', 'packages/client', 'packages/webhook-verify', 'packages/webhook-inbox']
  .concat(['apps/sandbox', 'apps/contract-tests'])
  .filter((dir) => !json(`${dir}/package.json`).private);
/** The public repository, from the packages' own `repository` field. */
const repository = (json('packages/client/package.json').repository.url as string)
  .replace(/^git\+/, '')
  .replace(/\.git$/, '');
const DOCS_HOME = `${repository}/tree/main/apps/docs/guides`;
const GUIDE_URL = new RegExp(
  `${repository.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/blob/main/apps/docs/guides/([\\w-]+\\.md)`,
  'g',
);

describe('the docs address of the published packages', () => {
  it('is the same homepage for every published package', () => {
    expect(published).toHaveLength(7);
    for (const dir of published) expect(json(`${dir}/package.json`).homepage, dir).toBe(DOCS_HOME);
  });

  it('is how every README links a guide: an absolute address of a guide that exists, never a repository path', () => {
    let links = 0;
    for (const dir of published) {
      const readme = readFileSync(join(repoDir, dir, 'README.md'), 'utf8');
      expect(readme.replace(GUIDE_URL, ''), `${dir}/README.md names a guide by its path`).not.toMatch(
        /apps\/docs\/guides\//,
      );
      for (const [, file] of readme.matchAll(GUIDE_URL)) {
        links++;
        expect(existsSync(join(appDir, 'guides', file!)), `${dir}/README.md links ${file}`).toBe(true);
      }
    }
    expect(links).toBeGreaterThanOrEqual(5);
  });
});

describe('running the contract suite against a tenant', () => {
  it('is one guide', () => {
    const guides = readdirSync(join(appDir, 'guides')).filter((f) => f.endsWith('.md'));
    const live = guides.filter((f) => readFileSync(join(appDir, 'guides', f), 'utf8').includes('--target live'));
    expect(live).toEqual(['03-contract-suite.md']);
  });
});
