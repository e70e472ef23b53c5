// The "API coverage" page comes from the contract suite's coverage.json: per target its totals and
// a table of operations with the response codes seen and missing; "not run" without the file; a
// file of another shape stops the build; and in Chromium every name of the file shows as text.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderSite } from '../src/build.ts';
import { coverageGuide, readCoverage, type CoverageSource } from '../src/coverage-page.ts';
import { siteSpec } from '../src/site-spec.ts';
import { startStaticServer, type StaticServer } from '../src/static-server.ts';
import { launchChromium, type Browser } from './chromium.ts';

const HOSTILE_TARGET = 'live <img src="./pwned.png" onerror="window.__pwned=1"> | b';
const HOSTILE_OPERATION = 'getForm`<b>bold</b>`|x';

const count = (covered: number, total: number) => ({ covered, total });
const coverageFile = (target: string, operationId: string) => ({
  version: 1,
  propertyDepth: 'top-level',
  targets: [
    {
      target,
      exchanges: { total: 7, matched: 6, accepted: 4, refused: 2, other: 0, unanswered: 1 },
      totals: {
        operations: count(1, 2),
        parameters: count(1, 3),
        properties: count(2, 9),
        responses: count(2, 8),
      },
      operations: [
        {
          operationId,
          method: 'GET',
          path: '/open/forms/{form}',
          exchanges: { accepted: 4, refused: 2, other: 0, unanswered: 0 },
          covered: [
            { kind: 'operation' },
            { kind: 'parameter', name: 'form', in: 'path' },
            { kind: 'response', status: '200' },
            { kind: 'response', status: '404' },
          ],
          missing: [
            { kind: 'response', status: '429' },
            { kind: 'response', status: '500' },
          ],
        },
        {
          operationId: 'listForms',
          method: 'GET',
          path: '/open/forms',
          exchanges: { accepted: 0, refused: 0, other: 0, unanswered: 0 },
          covered: [],
          missing: [{ kind: 'operation' }, { kind: 'response', status: '200' }],
        },
      ],
    },
  ],
});

const dirs: string[] = [];
function written(json: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'docs-coverage-'));
  dirs.push(dir);
  const file = join(dir, 'coverage.json');
  writeFileSync(file, typeof json === 'string' ? json : JSON.stringify(json));
  return file;
}

function source(json: unknown): CoverageSource {
  const read = readCoverage(written(json), 'reports/coverage.json');
  if (!read.ok) throw read.error;
  return read.value;
}

let server: StaticServer | undefined;
let browser: Browser | undefined;
let page: Page;
const requested: string[] = [];

afterAll(async () => {
  await browser?.close();
  await server?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the API coverage page', () => {
  it('shows per target its totals and each operation with the response codes seen and missing', () => {
    const body = coverageGuide(source(coverageFile('sandbox', 'getForm'))).body;
    expect(body).toContain('## Target `sandbox`');
    expect(body).toContain(
      'Operations 1/2 (50%), response codes 2/8 (25%), parameters 1/3 (33%), top-level schema properties 2/9 (22%). 7 requests: 4 accepted (2xx), 2 refused (4xx, 5xx); 6 of them to an operation of the spec.',
    );
    expect(body).toContain('| `getForm` | yes | 4 | 2 | `200`, `404` | `429`, `500` |');
    expect(body).toContain('| `listForms` | **no** | 0 | 0 | – | `200` |');
  });

  it('says "not run" without a coverage.json', () => {
    const read = readCoverage(join(tmpdir(), 'no-such-dir', 'coverage.json'), 'reports/coverage.json');
    expect(read.ok && read.value.kind).toBe('not-run');
    const body = coverageGuide(read.ok ? read.value : { kind: 'not-run', path: '' }).body;
    expect(body).toContain('There was none when this copy was built');
  });

  it('stops the build on a file that is not JSON or not a coverage report, naming the file', () => {
    for (const bad of ['{', { version: 2, targets: [] }, { version: 1, targets: [{ target: 'x' }] }]) {
      const read = readCoverage(written(bad), 'reports/coverage.json');
      expect(read.ok ? 'read' : read.error.kind).toBe('report_invalid');
      if (!read.ok) expect(read.error.message).toContain('reports/coverage.json');
    }
  });
});

describe('the API coverage page in Chromium', () => {
  beforeAll(async () => {
    const guide = coverageGuide(source(coverageFile(HOSTILE_TARGET, HOSTILE_OPERATION)));
    const spec = siteSpec({ openapi: '3.1.0', info: { title: 'T', version: '1' }, paths: {} }, [guide]);
    if (!spec.ok) throw spec.error;
    const dir = mkdtempSync(join(tmpdir(), 'docs-coverage-site-'));
    dirs.push(dir);
    const built = renderSite(spec.value, join(dir, 'site'));
    if (!built.ok) throw built.error;
    server = await startStaticServer(join(dir, 'site'));
    browser = await launchChromium();
    page = await browser.context.newPage();
    page.on('request', (req) => requested.push(req.url()));
    await page.route('**/*', (route) =>
      route.request().url().startsWith(server!.url) ? route.continue() : route.abort('blockedbyclient'),
    );
    await page.goto(new URL('#/api-coverage-of-the-contract-suite', server.url).href, { waitUntil: 'load' });
    await page.getByText('response codes missing').first().waitFor({ timeout: 30_000 });
  }, 120_000);

  it('shows target and operation names literally; nothing of them renders, runs or fetches', async () => {
    const seen = await page.evaluate(() => ({
      code: [...document.querySelectorAll('code')].map((c) => c.textContent),
      bold: [...document.querySelectorAll('b, strong')].map((e) => e.textContent).filter((t) => t === 'bold'),
      pwned: (window as { __pwned?: unknown }).__pwned ?? null,
      cells: [...document.querySelectorAll('td')].map((td) => td.textContent?.trim()),
      text: document.body.innerText,
      images: [...document.querySelectorAll('img')].map((img) => img.getAttribute('src') ?? ''),
    }));
    // The target's name is a section heading: its text, literally.
    expect(seen.text).toContain(`Target ${HOSTILE_TARGET}`);
    expect(seen.images.filter((src) => src.includes('pwned'))).toEqual([]);
    expect(seen.code).toContain(HOSTILE_OPERATION);
    expect(seen.bold).toEqual([]);
    expect(seen.pwned).toBeNull();
    expect(requested.filter((url) => url.includes('pwned'))).toEqual([]);
    // The bar inside the operation's name did not split its row: the row has its six cells.
    const row = seen.cells.indexOf(HOSTILE_OPERATION);
    expect(seen.cells.slice(row, row + 6)).toEqual([HOSTILE_OPERATION, 'yes', '4', '2', '200, 404', '429, 500']);
  });
});
