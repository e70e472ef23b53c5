// Issue 22 bug 9: an option error of downloadFile named the client's `baseUrl` (and the file
// URL's host), which the README says option errors never do.
import { expect, it } from 'vitest';
import { createFormsClient } from '../src/index.js';
import { TOKEN } from './support/clock.js';
import { dumps } from './support/dump.js';

const BASE = 'https://tenant-7f3a.private-forms.example:8443';
const SIGNATURE = 'a'.repeat(64);

it('downloadFile refuses a URL of another host without naming either host', async () => {
  const client = createFormsClient({ baseUrl: BASE, token: TOKEN });
  const foreign = `https://files.elsewhere.example/open/forms/1/submissions/file/abc?expires=1&signature=${SIGNATURE}`;
  const err = await client.submissions.downloadFile(foreign).catch((e: unknown) => e);
  expect(err).toMatchObject({ kind: 'invalid_option', option: 'file' });
  expect((err as Error).message).toMatch(/not on the client's `baseUrl`/);
  for (const dump of dumps(err))
    for (const needle of ['tenant-7f3a', 'private-forms', '8443', 'elsewhere', SIGNATURE])
      expect(dump).not.toContain(needle);
});
