// An ESM user on Node: startSandbox() from the package serves a tenant the client's token reads,
// the fault catalogue resolves from /faults, and the `forms-sandbox` bin prints its JSON line
// (then stops cleanly on SIGTERM), as `npx @forms-api/sandbox --port 0` runs it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { isSandboxError, startSandbox } from '@forms-api/sandbox';
import { FAULT_CATALOGUE, SANDBOX_FAULTS } from '@forms-api/sandbox/faults';

const sandbox = await startSandbox({ port: 0, rateLimit: false });
try {
  const [workspace] = sandbox.workspaces;
  const response = await fetch(`${sandbox.baseUrl}/open/workspaces/${workspace.id}/forms`, {
    headers: { authorization: `Bearer ${sandbox.tokens.all}`, accept: 'application/json' },
  });
  assert.equal(response.status, 200);
  assert.ok((await response.json()).data.length > 0);
} finally {
  await sandbox.close();
}
await assert.rejects(
  startSandbox({ faults: ['no-such-fault'] }),
  (error) => isSandboxError(error) && error.kind === 'unknown_fault',
);
assert.equal(SANDBOX_FAULTS.length, Object.keys(FAULT_CATALOGUE).length);

// The bin, through the link npm made in node_modules/.bin (what npx runs).
const bin = fileURLToPath(new URL('./node_modules/.bin/forms-sandbox', import.meta.url));
const child = spawn(bin, ['--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
let stdout = '';
for await (const chunk of child.stdout) {
  stdout += chunk;
  if (stdout.includes('\n')) break;
}
const line = JSON.parse(stdout.split('\n')[0]);
assert.match(line.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
assert.equal(
  (await fetch(`${line.baseUrl}/open/workspaces/1/forms`, { headers: { authorization: `Bearer ${line.tokens.all}` } }))
    .status,
  200,
);
child.kill('SIGTERM');
const [code] = await once(child, 'exit');
clearTimeout(timer);
assert.equal(code, 0);
console.log('esm: @forms-api/sandbox ok');
