// The ledger and the contract suite's report are data: a page built from a ledger entry holding
// raw HTML, a Markdown image and Markdoc tags, and from a report naming targets with backticks,
// shows all of it as text in Chromium; nothing of it renders, runs or fetches.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDriftLedger, type DriftLedger } from '@forms-api/spec/drift';
import { renderSite } from '../src/build.ts';
import { knownDifferencesGuide, readSuiteRun } from '../src/known-differences.ts';
import { siteSpec } from '../src/site-spec.ts';
import { startStaticServer, type StaticServer } from '../src/static-server.ts';
import { launchChromium, type Browser } from './chromium.ts';

const HOSTILE_TITLE = 'Raw <b>bold</b> & *stars* in a title';
const HOSTILE_OBSERVED =
  'It answers <img src="./pwned.png" onerror="window.__pwned=1"> and ![alt](./pwned-md.png) {% partial file="x" /%} with `<kept as code>`.';
const TARGETS = ['live`edge', '`ticked`', 'a | b'];

function hostileLedger(observed: string): DriftLedger {
  const real = readDriftLedger();
  const entry = { ...structuredClone(real.entries[0]!), title: HOSTILE_TITLE, observed };
  return { ...real, entries: [entry] };
}

/** The known-differences page alone, over a minimal spec, rendered into a fresh directory. */
function renderLedgerPage(dir: string, ledger: DriftLedger) {
  const reportFile = join(dir, 'report.json');
  writeFileSync(
    reportFile,
    JSON.stringify({
      startedAt: '2026-11-24T10:20:30.000Z',
      strict: false,
      targets: TARGETS.map((name) => ({ name, kind: 'live' })),
      ledgerSeen: [{ id: ledger.entries[0]!.id, count: 1, targets: TARGETS }],
    }),
  );
  const run = readSuiteRun(reportFile, 'report.json');
  if (!run.ok) throw run.error;
  const guide = knownDifferencesGuide(ledger, run.value);
  if (!guide.ok) throw guide.error;
  const spec = siteSpec({ openapi: '3.1.0', info: { title: 'T', version: '1' }, paths: {} }, [guide.value]);
  if (!spec.ok) throw spec.error;
  return renderSite(spec.value, join(dir, 'site'));
}

let dir: string;
let server: StaticServer;
let browser: Browser;
let page: Page;
const requested: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'docs-ledger-text-'));
  const built = renderLedgerPage(dir, hostileLedger(HOSTILE_OBSERVED));
  if (!built.ok) throw built.error;
  server = await startStaticServer(join(dir, 'site'));
  browser = await launchChromium();
  page = await browser.context.newPage();
  page.on('request', (req) => requested.push(req.url()));
  await page.route('**/*', (route) =>
    route.request().url().startsWith(server.url) ? route.continue() : route.abort('blockedbyclient'),
  );
  await page.goto(new URL('#/known-differences-from-the-contract', server.url).href, { waitUntil: 'load' });
  await page.getByText('What the service does:').first().waitFor({ timeout: 30_000 });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('ledger and report text on the docs site, in Chromium', () => {
  it('shows raw HTML, a Markdown image and Markdoc tags of the ledger as text; nothing renders or runs', async () => {
    const seen = await page.evaluate(() => {
      const main = document.querySelector('[data-testid="middle-panel"]')?.closest('main') ?? document.body;
      return {
        text: (main as HTMLElement).innerText,
        bold: [...main.querySelectorAll('b, strong')].map((e) => e.textContent).filter((t) => t === 'bold'),
        images: [...main.querySelectorAll('img')].map((img) => img.getAttribute('src') ?? ''),
        pwned: (window as { __pwned?: unknown }).__pwned ?? null,
        code: [...main.querySelectorAll('code')].map((c) => c.textContent),
      };
    });
    expect(seen.text).toContain(HOSTILE_TITLE);
    expect(seen.text).toContain(
      'It answers <img src="./pwned.png" onerror="window.__pwned=1"> and ![alt](./pwned-md.png)',
    );
    expect(seen.text).toContain('{% partial file="x" /%}');
    expect(seen.bold).toEqual([]);
    expect(seen.images.filter((src) => src.includes('pwned'))).toEqual([]);
    expect(seen.pwned).toBeNull();
    expect(requested.filter((url) => url.includes('pwned'))).toEqual([]);
    // The ledger's own code spans stay code.
    expect(seen.code).toContain('<kept as code>');
  });

  it('shows target names of the report literally, backticks and bars included', async () => {
    const code = await page.evaluate(() => [...document.querySelectorAll('code')].map((c) => c.textContent));
    for (const name of TARGETS) expect(code, `a code element reading ${name}`).toContain(name);
  });
});

describe('the offline guard reads the page as the browser will', () => {
  it('fails the build when ledger text holds an image on another host', () => {
    const other = mkdtempSync(join(tmpdir(), 'docs-ledger-guard-'));
    try {
      const built = renderLedgerPage(other, hostileLedger('It answers <img src="https://example.invalid/x.png">.'));
      expect(built.ok ? 'built' : built.error.kind).toBe('external_resource');
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
