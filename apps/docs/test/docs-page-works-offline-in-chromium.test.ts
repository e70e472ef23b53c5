// The built site in a real browser: it loads from 127.0.0.1 alone with no console errors, its
// navigation holds every operation of the spec and the webhook, search finds the list
// operation, the page arrives compressed, and a screenshot lands in artifacts/docs.png for CI.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { PATH_ITEM_METHODS } from '@forms-api/spec/path-item-methods';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appDir, distDir } from '../src/build.ts';
import { startStaticServer, type StaticServer } from '../src/static-server.ts';
import { launchChromium, type Browser } from './chromium.ts';

const bundlePath = join(appDir, '../../spec/dist/openapi.json');
const bundle = JSON.parse(readFileSync(bundlePath, 'utf8'));
const operationSummaries: string[] = Object.values<any>(bundle.paths).flatMap((item) =>
  PATH_ITEM_METHODS.filter((m) => item[m]).map((m) => item[m].summary as string),
);
const webhookNames = Object.keys(bundle.webhooks ?? {});

let server: StaticServer;
let browser: Browser;
let page: Page;
const outsideRequests: string[] = [];
const failedRequests: string[] = [];
const consoleErrors: string[] = [];

beforeAll(async () => {
  if (!existsSync(join(distDir, 'index.html'))) {
    throw new Error('apps/docs/dist/index.html is missing: run `pnpm docs:build` first');
  }
  server = await startStaticServer(distDir);
  browser = await launchChromium();
  page = await browser.context.newPage();
  // Anything not served by our own server is recorded and refused: the site must work offline.
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(server.url)) return route.continue();
    outsideRequests.push(url);
    return route.abort('blockedbyclient');
  });
  page.on('requestfailed', (req) => failedRequests.push(`${req.url()}: ${req.failure()?.errorText}`));
  page.on('response', (res) => {
    if (res.status() >= 400) failedRequests.push(`${res.url()}: HTTP ${res.status()}`);
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error') consoleErrors.push(msg.text());
  });
  page.on('pageerror', (err) => consoleErrors.push(`uncaught: ${err.message}`));
  await page.goto(server.url, { waitUntil: 'load' });
  await page.getByTestId('menu-item-label').first().waitFor();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

// A closed group of the navigation shows a right chevron; an open one a down chevron.
const CLOSED = '[data-component-name="icons/ChevronRightIcon/ChevronRightIcon"]';
const OPEN = '[data-component-name="icons/ChevronDownIcon/ChevronDownIcon"]';

/** The navigation's item whose label is exactly this text (a guide's heading may contain it). */
function navigationItem(label: string) {
  return page
    .getByTestId('menu-item-label')
    .filter({ has: page.locator(`[data-text="${label.replaceAll('"', '\\"')}"]`) });
}

/** The label texts of these navigation items. */
function labelTexts(items: Locator): Promise<string[]> {
  return items.locator('[data-text]').evaluateAll((els) => els.map((e) => e.getAttribute('data-text') ?? ''));
}

/** The labels of the groups the navigation shows closed. */
function closedGroups(): Promise<string[]> {
  return labelTexts(page.getByTestId('menu-item-label').filter({ has: page.locator(CLOSED) }));
}

/** Opens a group and waits until it shows itself open (its items rendered), never for a fixed time. */
async function openGroup(label: string): Promise<void> {
  await navigationItem(label).first().click();
  await navigationItem(label).first().locator(OPEN).waitFor();
}

/** Opens each group of the navigation once (nested ones too) and returns every label seen. */
async function navigationLabels(): Promise<Set<string>> {
  const seen = new Set<string>();
  const opened = new Set<string>();
  for (let step = 0; step < 60; step++) {
    for (const text of await labelTexts(page.getByTestId('menu-item-label'))) seen.add(text);
    const next = (await closedGroups()).find((text) => !opened.has(text));
    if (next === undefined) break;
    opened.add(next);
    await openGroup(next);
  }
  return seen;
}

/**
 * Opens closed groups of the navigation, one at a time, until the item with this label shows
 * (opening a group may close another, so it is looked for after each one has opened), and
 * returns it; fails naming the groups opened when none holds it.
 */
async function revealInNavigation(label: string) {
  const item = navigationItem(label);
  const tried: string[] = [];
  for (let step = 0; step < 60 && (await item.count()) === 0; step++) {
    const next = (await closedGroups()).find((text) => !tried.includes(text));
    if (next === undefined) break;
    tried.push(next);
    await openGroup(next);
  }
  expect(await item.count(), `no group of the navigation holds ${label}; opened: ${tried.join(', ')}`).toBeGreaterThan(
    0,
  );
  return item.first();
}

describe('the docs site in Chromium', () => {
  it('shows the forms-api-kit title, every operation, the webhook and the guides in the navigation', async () => {
    expect(await page.title()).toContain('forms-api-kit');
    const seen = await navigationLabels();
    const missing = [...operationSummaries, ...webhookNames].filter((label) => !seen.has(label));
    expect(missing, `navigation lacks: ${missing.join(', ')}; it has: ${[...seen].join(' | ')}`).toEqual([]);
    for (const label of [
      'Guides',
      'API reference',
      'Quick start with the client',
      'Verifying webhooks',
      'Running the contract suite against your tenant',
      'Using the sandbox',
      'Never lose a submission',
      'Known differences from the contract',
    ]) {
      expect(seen.has(label), `navigation lacks ${label}`).toBe(true);
    }
    expect(operationSummaries).toHaveLength(29);
  });

  it('reaches the browser compressed, in under a quarter of its bytes', async () => {
    const sizes = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return { transferred: nav.transferSize, page: nav.decodedBodySize };
    });
    expect(sizes.page).toBeGreaterThan(1_000_000);
    expect(sizes.transferred).toBeGreaterThan(0);
    expect(sizes.transferred).toBeLessThan(sizes.page / 4);
  });

  it('documents the webhook with its signature header, also when opened by its own URL', async () => {
    const webhookItem = await revealInNavigation(webhookNames[0]!);
    const href = await webhookItem.evaluate((el) => el.closest('a')?.getAttribute('href') ?? null);
    expect(href, 'the webhook menu item links to its page').toBeTruthy();
    // A fresh load of the webhook's own (hash) route, as a reader following a shared link would.
    await page.goto('about:blank');
    await page.goto(new URL(href!, server.url).href, { waitUntil: 'load' });
    await expect
      .poll(() => page.getByText('X-Webhook-Signature', { exact: true }).count(), { timeout: 15_000 })
      .toBeGreaterThan(0);
  });

  it('shows each operation with its client sample and curl line', async () => {
    await page.goto(server.url, { waitUntil: 'load' });
    await page.getByTestId('menu-item-label').first().waitFor();
    // Open the operation through search, as a reader would.
    await page.getByTestId('search-trigger').click();
    await page.keyboard.type('List the submissions');
    await page
      .getByTestId('search-dialog')
      .locator('[data-component-name="Search/SearchItem"]')
      .filter({ hasText: 'List the submissions of a form' })
      .first()
      .click();
    const code = (text: string) => page.locator('pre').filter({ hasText: text });
    await expect.poll(() => code('forms.submissions.list(11').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    // The language switcher's other choice: the curl line.
    // (The switcher in the right panel: the description names @forms-api/client too.)
    await page.getByTestId('right-panel').getByText('@forms-api/client', { exact: true }).first().click();
    await page.getByText('curl', { exact: true }).first().click();
    await expect
      .poll(() => code('/open/forms/11/submissions?status=completed').count(), { timeout: 15_000 })
      .toBeGreaterThan(0);
  });

  it('shows an operation added after the first eleven with its client sample and curl line', async () => {
    await page.goto(server.url, { waitUntil: 'load' });
    await page.getByTestId('menu-item-label').first().waitFor();
    await page.getByTestId('search-trigger').click();
    await page.keyboard.type('Export the submissions');
    await page
      .getByTestId('search-dialog')
      .locator('[data-component-name="Search/SearchItem"]')
      .filter({ hasText: 'Export the submissions of a form' })
      .first()
      .click();
    const code = (text: string) => page.locator('pre').filter({ hasText: text });
    const samples = {
      '@forms-api/client': code('forms.operations.exportFormSubmissions('),
      curl: code('/open/forms/11/submissions/export'),
    };
    // The language chosen last is kept from operation to operation: read the switcher's choice,
    // check that sample, then switch to the other one and check it.
    const switcher = page
      .getByTestId('right-panel')
      .getByText(/^(@forms-api\/client|curl)$/)
      .first();
    await switcher.waitFor({ timeout: 15_000 });
    const shown = (await switcher.textContent()) === 'curl' ? 'curl' : '@forms-api/client';
    const other = shown === 'curl' ? '@forms-api/client' : 'curl';
    await expect.poll(() => samples[shown].count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await samples[other].count(), 'one language is shown at a time').toBe(0);
    await switcher.click();
    await page.getByText(other, { exact: true }).last().click();
    await expect.poll(() => samples[other].count(), { timeout: 15_000 }).toBeGreaterThan(0);
  });

  it('finds the list operation when searching for "submissions"', async () => {
    await page.getByTestId('search-trigger').click();
    await page.keyboard.type('submissions');
    const hit = page
      .getByTestId('search-dialog')
      .locator('[data-component-name="Search/SearchItem"]')
      .filter({ hasText: 'List the submissions of a form' });
    await hit.first().waitFor({ timeout: 15_000 });
    expect(await hit.count()).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
  });

  it('writes a screenshot of the landing page to artifacts/docs.png', async () => {
    await page.goto(server.url, { waitUntil: 'load' });
    await page.getByTestId('menu-item-label').first().waitFor();
    const artifacts = join(appDir, 'artifacts');
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, 'docs.png') });
    expect(existsSync(join(artifacts, 'docs.png'))).toBe(true);
  });

  it('made no request outside 127.0.0.1, none failed and the console shows no error', () => {
    expect(outsideRequests, 'requests to other hosts').toEqual([]);
    expect(failedRequests, 'failed requests').toEqual([]);
    expect(consoleErrors, 'console errors').toEqual([]);
  });
});
