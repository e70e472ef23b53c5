// `--no-proxy` skips the `prism proxy` pass, as the README says, on the embedded sandboxes too (it
// used to reach only a live target, so a sandbox run still started Prism and sent its reads again).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCli } from '../src/run-cli.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

async function targetsOfARun(...extra: string[]): Promise<string[]> {
  const reportDir = mkdtempSync(join(tmpdir(), 'no-proxy-'));
  dirs.push(reportDir);
  const code = await runCli({
    argv: [
      '--target',
      'sandbox',
      '--operation',
      'listWorkspaceForms',
      '--explore-budget',
      '0',
      '--report-dir',
      reportDir,
      ...extra,
    ],
    env: {},
    out: () => {},
    err: () => {},
    signal: new AbortController().signal,
  });
  expect(code).toBe(0);
  const report = JSON.parse(readFileSync(join(reportDir, 'contract-report.json'), 'utf8')) as {
    results: Array<{ target: string }>;
  };
  return [...new Set(report.results.map((r) => r.target))].sort();
}

it('a sandbox run sends its reads through prism proxy, and not with --no-proxy', async () => {
  expect(await targetsOfARun()).toEqual(['sandbox', 'sandbox (prism proxy)']);
  expect(await targetsOfARun('--no-proxy')).toEqual(['sandbox']);
}, 120_000);
