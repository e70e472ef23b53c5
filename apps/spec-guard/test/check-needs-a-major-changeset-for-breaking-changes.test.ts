// The whole check on fixture folders (released.json, current.json, changeset/*.md): it fails on
// a breaking change without major changesets, names each change and each package, and passes on
// a compatible change or when every affected package has a major changeset. Also the real CLI.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseChangeset } from '../src/changesets.ts';
import { affectedPackages, check } from '../src/check.ts';

const fixtures = fileURLToPath(new URL('./fixtures/check/', import.meta.url));
const run = (name: string) =>
  check({
    released: join(fixtures, name, 'released.json'),
    current: join(fixtures, name, 'current.json'),
    changesetDir: join(fixtures, name, 'changeset'),
  });

describe('check', () => {
  it('passes a compatible change', () => {
    const outcome = run('compatible');
    expect(outcome).toMatchObject({ ok: true, breaking: [] });
  });

  it('fails a breaking change without a changeset, naming rule, location, before → after and packages', () => {
    const outcome = run('breaking-without-changeset');
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.kind).toBe('breaking_without_major');
    expect(outcome.missingMajor).toEqual(affectedPackages(outcome.breaking));
    expect(outcome.report).toContain(
      '[response-property-removed] GET /forms/{id}/submissions response 200 application/json: data[].note: optional → (removed)',
    );
    expect(outcome.report).toContain(
      '[request-property-became-required] PUT /forms/{id}/submissions request body application/json: status: optional → required',
    );
    expect(outcome.report).toContain('"@forms-api/client": major');
  });

  it('fails when the changesets bump the affected packages by less than major', () => {
    const outcome = run('breaking-with-minor-changeset');
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.missingMajor).toEqual(affectedPackages(outcome.breaking));
  });

  it('passes a breaking change when every affected package has a major changeset', () => {
    expect(run('breaking-with-major-changeset')).toMatchObject({ ok: true, covered: true });
  });

  it('asks only for the affected packages it is given (those in the workspace)', () => {
    const outcome = check({
      released: join(fixtures, 'breaking-with-minor-changeset', 'released.json'),
      current: join(fixtures, 'breaking-with-minor-changeset', 'current.json'),
      changesetDir: join(fixtures, 'breaking-with-major-changeset', 'changeset'),
      packages: ['@forms-api/spec'],
    });
    expect(outcome.ok).toBe(true);
  });

  it('reports a missing spec as a value, not a crash', () => {
    const outcome = check({
      released: join(fixtures, 'nope.json'),
      current: join(fixtures, 'nope.json'),
      changesetDir: fixtures,
    });
    expect(outcome).toMatchObject({ ok: false, kind: 'spec_missing' });
  });
});

describe('parseChangeset', () => {
  it('reads quoted and unquoted package names', () => {
    expect(parseChangeset('a.md', '---\n\'@forms-api/spec\': major\n"@forms-api/types": patch\n---\n\ntext')).toEqual({
      file: 'a.md',
      releases: { '@forms-api/spec': 'major', '@forms-api/types': 'patch' },
    });
  });

  it('rejects a bad bump or a missing frontmatter with a message', () => {
    expect(parseChangeset('b.md', '---\n"@forms-api/spec": huge\n---\n')).toMatchObject({
      kind: 'changeset_invalid',
      message: expect.stringContaining('major, minor, patch or none'),
    });
    expect(parseChangeset('c.md', 'just text')).toMatchObject({ kind: 'changeset_invalid' });
  });
});

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
describe.skipIf(!existsSync(cli))('the spec-guard CLI (dist/cli.js)', () => {
  const exec = (name: string) =>
    spawnSync(
      process.execPath,
      [
        cli,
        '--released',
        join(fixtures, name, 'released.json'),
        '--current',
        join(fixtures, name, 'current.json'),
        '--changesets',
        join(fixtures, name, 'changeset'),
      ],
      { encoding: 'utf8' },
    );

  it('exits 1 with the report on a breaking fixture', () => {
    const result = exec('breaking-without-changeset');
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/breaking change\(s\) against the released spec/);
  });

  it('exits 0 on the compatible fixture and on the covered one', () => {
    expect(exec('compatible').status).toBe(0);
    expect(exec('breaking-with-major-changeset').status).toBe(0);
  });
});

describe('a breaking change of the webhook payload (issue 21 item 8)', () => {
  it('also needs majors of webhook-verify and webhook-inbox, which export the payload type', () => {
    const outcome = run('breaking-payload-with-api-majors-only');
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.breaking.every((c) => c.location.startsWith('webhook '))).toBe(true);
      expect(outcome.missingMajor).toEqual(['@forms-api/webhook-verify', '@forms-api/webhook-inbox']);
      expect(outcome.report).toContain('"@forms-api/webhook-verify": major');
    }
  });

  it('passes with majors of every package that exports the payload type', () => {
    expect(run('breaking-payload-with-every-major')).toMatchObject({ ok: true, covered: true });
  });

  it('counts a change of a schema the payload shares (Submission, in Event.data) as a payload change', () => {
    const outcome = run('breaking-without-changeset');
    expect(outcome.breaking.some((c) => c.location.startsWith('webhook '))).toBe(true);
    if (!outcome.ok) expect(outcome.missingMajor).toContain('@forms-api/webhook-inbox');
  });

  it('does not ask the webhook packages for a major when only an API path breaks', () => {
    expect(run('breaking-path-with-api-majors')).toMatchObject({ ok: true, covered: true });
  });
});
