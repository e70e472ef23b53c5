// The site's layout in Chromium at 1280 and 1440 px (and on a phone): on every guide and every
// reference page nothing is clipped (no code block or table wider than its box, nothing past the
// window's edge), no Markdown backtick shows as text, no identifier is broken across lines, and
// the menu button leaves the front page's last link reachable. The site is loaded once per width
// and each page reached by its hash route, as its menu link does: layout follows from the width
// and what is rendered, and re-parsing the 3 MB page for each route only cost minutes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { PATH_ITEM_METHODS } from '@forms-api/spec/path-item-methods';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distDir } from '../src/build.ts';
import { openBuiltSite, type BuiltSite } from './chromium.ts';
import { followInPage } from './section-in-view.ts';

const site = JSON.parse(readFileSync(join(distDir, 'openapi.json'), 'utf8'));
const guideTags: string[] = site['x-tagGroups'][0].tags;
const slug = (text: string) => text.toLowerCase().trim().replace(/\s+/g, '-');
/** Every guide's page and every operation's, by its hash route. */
const routes = [
  '#/',
  ...guideTags.map((t) => `#/${slug(t)}`),
  ...Object.values<any>(site.paths).flatMap((item) =>
    PATH_ITEM_METHODS.filter((m) => item[m]).map(
      (m) => `#/${slug(item[m].tags[0])}/${item[m].operationId.toLowerCase()}`,
    ),
  ),
];

let built: BuiltSite;
let page: Page;

beforeAll(async () => {
  built = await openBuiltSite();
  page = built.page;
});

afterAll(async () => {
  await built?.close();
});

async function load(route: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(new URL(route, built.url).href, { waitUntil: 'load' });
  // (On a phone the menu is folded away behind its button: attached, not visible.)
  await page.getByTestId('menu-item-label').first().waitFor({ state: 'attached' });
  await page.locator('main h1, main h2').first().waitFor();
}

/** What is wrong with the layout of the page on screen, one line per finding. */
function layoutProblems(): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const main = document.querySelector('main') ?? document.body;
    const describe = (e: Element) => `${e.tagName.toLowerCase()} "${(e.textContent ?? '').trim().slice(0, 50)}"`;
    for (const e of main.querySelectorAll<HTMLElement>('pre, table, [data-testid="right-panel"] *, code')) {
      const rect = e.getBoundingClientRect();
      if (rect.width === 0 || getComputedStyle(e).visibility === 'hidden') continue;
      if (e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0) problems.push(`clipped: ${describe(e)}`);
      if (rect.right > document.documentElement.clientWidth + 1) problems.push(`past the edge: ${describe(e)}`);
    }
    // An identifier (code without spaces) that wraps is broken inside a word.
    for (const e of main.querySelectorAll('code')) {
      const text = e.textContent ?? '';
      if (e.closest('pre') || /\s/.test(text) || text.length < 2) continue;
      if (e.getClientRects().length > 1) problems.push(`identifier broken across lines: ${text}`);
    }
    // A backtick in text outside code is Markdown shown as written.
    const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('pre, code, script, style, textarea')) continue;
      if (parent.getClientRects().length === 0) continue;
      if (node.textContent?.includes('`')) problems.push(`literal backtick: "${node.textContent.trim().slice(0, 80)}"`);
    }
    return [...new Set(problems)];
  });
}

describe.each([1280, 1440])('the layout at %i px', (width) => {
  it('clips nothing, shows no Markdown backtick and breaks no identifier, on every page', async () => {
    await page.setViewportSize({ width, height: 900 });
    expect(routes.length).toBeGreaterThan(15);
    const found: string[] = [];
    await load(`/${routes[0]}`);
    for (const route of routes) {
      if (route !== routes[0]) await followInPage(page, route);
      for (const problem of await layoutProblems()) found.push(`${route}: ${problem}`);
    }
    expect(found).toEqual([]);
  }, 600_000);
});

describe('on a phone', () => {
  it("the menu button leaves the front page's last link reachable", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await load('/');
    // The front page goes on with every section after it (Redoc renders each as it nears the
    // window), the reference's last tag at the end: scrolled to the bottom until that tag shows.
    const lastTag = site['x-tagGroups'].at(-1).tags.at(-1);
    await page.waitForFunction(
      (tag) => {
        window.scrollTo(0, document.documentElement.scrollHeight);
        return [...document.querySelectorAll('main h1, main h2')].some((h) => h.textContent?.trim() === tag);
      },
      lastTag,
      { timeout: 30_000 },
    );
    // The last link brought as far up as the page scrolls: the floating menu button must not cover it.
    const covered = await page.evaluate(() => {
      const last = [...document.querySelectorAll('main a[href]')].pop()!;
      last.scrollIntoView({ block: 'start' });
      window.scrollTo(0, Math.min(window.scrollY, document.documentElement.scrollHeight - window.innerHeight));
      const r = last.getBoundingClientRect();
      const fixed = [...document.querySelectorAll<HTMLElement>('body *')].filter(
        (e) => getComputedStyle(e).position === 'fixed' && e.getBoundingClientRect().width > 0,
      );
      const over = fixed.filter((e) => {
        const f = e.getBoundingClientRect();
        return f.left < r.right && f.right > r.left && f.top < r.bottom && f.bottom > r.top;
      });
      return r.bottom > window.innerHeight
        ? 'below the window'
        : over.map((e) => e.outerHTML.slice(0, 80)).join(' ') || null;
    });
    expect(covered).toBeNull();
  });
});
