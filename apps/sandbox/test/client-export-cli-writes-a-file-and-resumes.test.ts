// Issue 28: `forms-export`, the client's command for users who never write code: a form's
// submissions into a file, a cursor to resume from on stderr, clear errors with exit codes, and
// never the token in what it prints.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createFormsClient } from '@forms-api/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxHandle } from '../src/index.js';
import { sandbox } from './support.js';

const bin = join(
  dirname(createRequire(import.meta.url).resolve('@forms-api/client/package.json')),
  'bin',
  'forms-export.js',
);
let s: SandboxHandle;
let dir: string;

beforeAll(async () => {
  s = await sandbox({ behaviour: 'observed', rateLimit: { limit: 100, windowMs: 60_000 } });
  dir = mkdtempSync(join(tmpdir(), 'forms-export-'));
});
afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

function run(args: string[], env: Record<string, string | undefined> = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      [bin, ...args],
      { env: { PATH: process.env.PATH, FORMS_API_BASE_URL: s.baseUrl, FORMS_API_TOKEN: s.tokens.all, ...env } },
      (error, stdout, stderr) => resolve({ code: error ? (child.exitCode ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('forms-export', () => {
  it('writes a CSV file, then only what is new from the cursor it printed', async () => {
    const out = join(dir, 'contact.csv');
    const first = await run(['--form', '11', '--format', 'csv', '--status', 'completed', '--out', out]);
    expect(first.code, first.stderr).toBe(0);
    expect(existsSync(`${out}.partial`)).toBe(false);
    const client = createFormsClient({ baseUrl: s.baseUrl, token: s.tokens.all });
    const total = (await client.submissions.list(11, { status: 'completed', perPage: 1 })).meta.total;
    const rows = readFileSync(out, 'utf8').split('\r\n').filter(Boolean);
    expect(rows).toHaveLength(total + 1);
    expect(first.stderr).toContain(`wrote ${total} submission(s) of form 11 to ${out}`);
    const cursor = /--since '([^']+)'/.exec(first.stderr)![1]!;

    const form = await client.forms.get(11);
    const field = (name: string) => form.properties.find((f) => f.name === name)!.id;
    await client.answers.submit(form.slug, { [field('Name')]: 'After', [field('Email')]: 'after@example.com' });
    const next = await run(['--form', '11', '--format', 'ndjson', '--status', 'completed', '--since', cursor]);
    expect(next.code, next.stderr).toBe(0);
    const lines = next.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { answers: Record<string, { value: unknown }> });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.answers[field('Name')]!.value).toBe('After');
    for (const output of [first.stdout, first.stderr, next.stderr])
      expect(output).not.toContain(s.tokens.all.split('|')[1]);
  });

  it('says what is wrong, with exit 2 for usage and 1 for the service, and never prints the token', async () => {
    const noToken = await run(['--form', '11', '--format', 'csv'], { FORMS_API_TOKEN: undefined });
    expect(noToken).toMatchObject({ code: 2, stderr: expect.stringContaining('Set FORMS_API_TOKEN') });
    const badFormat = await run(['--form', '11', '--format', 'xlsx']);
    expect(badFormat).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--format needs ndjson or csv\.\nUsage: forms-export/),
    });
    const badSince = await run(['--form', '11', '--format', 'csv', '--since', 'last week']);
    expect(badSince).toMatchObject({ code: 2, stderr: expect.stringContaining('invalid_option') });
    const wrongToken = '999|wrongsecretwrongsecretwrongsecretwrongse';
    const refused = await run(['--form', '11', '--format', 'csv', '--out', join(dir, 'never.csv')], {
      FORMS_API_TOKEN: wrongToken,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^forms-export: unauthenticated: /);
    expect(refused.stderr).not.toContain('wrongsecret');
    expect(existsSync(join(dir, 'never.csv.partial'))).toBe(false);
    expect(existsSync(join(dir, 'never.csv'))).toBe(false);
  });

  it('prints what it was given without letting it drive the terminal', async () => {
    const hostile = await run(['--form', '11', '--\u001b]0;pwned\u0007\u001b[2Jformat', 'csv']);
    expect(hostile.code).toBe(2);
    expect(hostile.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    expect(hostile.stderr).toContain('\\x1b]0;pwned\\x07\\x1b[2Jformat');
  });
});
