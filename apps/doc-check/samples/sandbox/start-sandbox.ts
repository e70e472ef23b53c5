// #region start
import { startSandbox } from '@forms-api/sandbox';

const sandbox = await startSandbox({ port: 0, allowPrivateWebhooks: true, rateLimit: false });
// sandbox.baseUrl, sandbox.tokens.all, sandbox.workspaces, sandbox.adminToken
await fetch(`${sandbox.baseUrl}/__sandbox/reset`, {
  method: 'POST',
  headers: { authorization: `Bearer ${sandbox.adminToken}` },
});
sandbox.reset(); // the same, in process
await sandbox.close();
// #endregion
