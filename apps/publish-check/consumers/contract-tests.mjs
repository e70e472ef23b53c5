// A team running the published contract suite from its own project: the `forms-contract` bin
// (what `npx @forms-api/contract-tests` runs) finds the spec artifacts and Prism in node_modules,
// runs the mock and a live tenant (here the published sandbox) and writes its reports where told.
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startSandbox } from '@forms-api/sandbox';

const bin = fileURLToPath(new URL('./node_modules/.bin/forms-contract', import.meta.url));
assert.match(execFileSync(bin, ['--help'], { encoding: 'utf8' }), /--strict/);
assert.equal(spawnSync(bin, ['--target', 'nowhere'], { encoding: 'utf8' }).status, 2);

const tenant = await startSandbox({ port: 0, rateLimit: false });
const reports = mkdtempSync(join(tmpdir(), 'contract-reports-'));
try {
  // Asynchronously: the tenant answers from this very process.
  const run = await promisify(execFile)(
    bin,
    ['--target', 'prism,live', '--operation', 'listWorkspaceForms', '--report-dir', reports],
    {
      encoding: 'utf8',
      timeout: 180_000,
      env: {
        ...process.env,
        FORMS_API_BASE_URL: tenant.baseUrl,
        FORMS_API_TOKEN: tenant.tokens.all,
        FORMS_API_WORKSPACE_ID: String(tenant.workspaces[0].id),
        FORMS_API_FORM_ID: String(tenant.workspaces[0].forms[0].id),
      },
    },
  );
  assert.match(run.stdout, /^target prism: [1-9]\d* passed, 0 failed/m);
  assert.match(run.stdout, /^target live: [1-9]\d* passed, 0 failed/m);
  assert.ok(!`${run.stdout}${run.stderr}`.includes(tenant.tokens.all), 'the token must not be printed');
  assert.ok(existsSync(join(reports, 'contract-report.json')));
  assert.match(readFileSync(join(reports, 'contract-report.xml'), 'utf8'), /<testsuite[^>]*name="live"/);
} finally {
  await tenant.close();
  rmSync(reports, { recursive: true, force: true });
}
console.log('esm: @forms-api/contract-tests ok');
