import { startSandbox } from '@forms-api/sandbox';
import { createFormsClient } from '@forms-api/client';

const sandbox = await startSandbox({ port: 0, allowPrivateWebhooks: true });
const client = createFormsClient({ baseUrl: sandbox.baseUrl, token: sandbox.tokens.all });

const [workspace] = sandbox.workspaces;
const page = await client.forms.list(workspace!.id);
console.log(page.data.map((form) => form.title));
await sandbox.close();
