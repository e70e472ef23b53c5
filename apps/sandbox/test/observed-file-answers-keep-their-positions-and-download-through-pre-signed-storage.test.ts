// File answers in `observed` against `contract`, over HTTP. Submission 1290 of form 11 stores
// ['', 'passport-scan.pdf']: observed lists it as an object keyed by position ({"1": {...}}), as
// the service's filtered collection serialises; contract as a list. A signed file URL answers 302
// to a pre-signed storage URL (valid a minute, served by the sandbox) in observed, the file itself
// in contract; both hand the file out as an application/octet-stream attachment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, fieldIds, sideBySide } from './support.js';

let sbs: Awaited<ReturnType<typeof sideBySide>>;
let attachment: string;
beforeAll(async () => {
  sbs = await sideBySide();
  attachment = (await fieldIds(sbs.observed, 11)).Attachment!;
});
afterAll(() => sbs.close());

type Which = 'contract' | 'observed';
const submission1290 = async (which: Which) => {
  const { body } = await call(sbs[which].baseUrl, 'GET', '/open/forms/11/submissions?search=passport-scan', {
    token: sbs[which].tokens.read,
  });
  expect(body.data.map((s: { id: number }) => s.id)).toEqual([1290]);
  return body.data[0];
};
// The seed stores names as the service does: `<name>_<uuid>.<ext>`.
const PASSPORT = /^passport-scan_[0-9a-f-]{36}\.pdf$/;

describe('a file answer with an empty entry before a file (submission-file-answer-object)', () => {
  it('is an object keyed by position in observed, a list in contract', async () => {
    const [observed, contract] = [await submission1290('observed'), await submission1290('contract')];
    expect(observed.data[attachment]).toEqual({
      1: { file_url: expect.any(String), file_name: expect.stringMatching(PASSPORT) },
    });
    expect(Object.keys(observed.data[attachment])).toEqual(['1']);
    expect(contract.data[attachment]).toEqual([
      { file_url: expect.any(String), file_name: expect.stringMatching(PASSPORT) },
    ]);
    // Any other file answer is a list in both.
    const { body } = await call(sbs.observed.baseUrl, 'GET', '/open/forms/11/submissions?search=invoice-&per_page=1', {
      token: sbs.observed.tokens.read,
    });
    expect(body.data[0].data[attachment]).toEqual([
      { file_url: expect.any(String), file_name: expect.stringMatching(/^invoice-\d+_[0-9a-f-]{36}\.pdf$/) },
    ]);
  });
});

describe('the signed download', () => {
  it('answers 302 to a pre-signed storage URL of the sandbox in observed, which serves the file; the file itself in contract', async () => {
    const listed = Object.values(
      (await submission1290('observed')).data[attachment] as Record<string, { file_url: string; file_name: string }>,
    )[0]!;
    const [observedUrl, name] = [listed.file_url, listed.file_name];
    const content = `Sandbox file ${name} of form 11\n`;
    const redirect = await fetch(observedUrl, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const location = new URL(redirect.headers.get('location')!);
    expect(location.origin).toBe(sbs.observed.baseUrl);
    expect(location.pathname).toBe(`/__sandbox/storage/forms/11/${Buffer.from(name).toString('base64url')}`);
    expect(location.searchParams.get('X-Amz-Expires')).toBe('60');
    const stored = await fetch(location);
    expect(stored.status).toBe(200);
    // FormSubmissionController.php:204-214 asks storage for application/octet-stream, as an attachment.
    expect(stored.headers.get('content-type')).toBe('application/octet-stream');
    expect(stored.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);
    expect(await stored.text()).toBe(content);
    // The pre-signed URL is checked: a changed signature is refused by the storage host.
    location.searchParams.set('X-Amz-Signature', '0'.repeat(64));
    const tampered = await fetch(location);
    expect(tampered.status).toBe(403);
    expect(await tampered.text()).toContain('<Code>SignatureDoesNotMatch</Code>');

    const contractUrl = (await submission1290('contract')).data[attachment][0].file_url;
    const direct = await fetch(contractUrl, { redirect: 'manual' });
    expect(direct.status).toBe(200);
    expect(direct.headers.get('content-type')).toBe('application/octet-stream');
    expect(await direct.text()).toBe(content);
  });

  it('refuses a tampered signed URL with 403 in both, before any redirect', async () => {
    for (const which of ['observed', 'contract'] as const) {
      const listed = (await submission1290(which)).data[attachment];
      const url = new URL((Object.values(listed) as Array<{ file_url: string }>)[0]!.file_url);
      url.searchParams.set('signature', 'f'.repeat(64));
      const res = await fetch(url, { redirect: 'manual' });
      expect(res.status, which).toBe(403);
      expect(JSON.parse(await res.text()), which).toEqual({ message: 'Invalid signature.' });
    }
  });
});
