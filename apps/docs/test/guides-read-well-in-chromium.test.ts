// The guides as a reader meets them in Chromium at 1400 px: every menu link, followed in the page,
// shows its section, and so does a deep link of each guide loaded fresh; a section's path redirects to it; the front page leads to a receiver, a paced live
// contract run and the known differences; code uses the width, is highlighted and never clipped;
// search text keeps its words apart, shows no internal marker and finds the pagination content.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appDir } from '../src/build.ts';
import { sectionRoute } from '../src/front-page.ts';
import { KNOWN_DIFFERENCES_TITLE } from '../src/known-differences.ts';
import { openBuiltSite, type BuiltSite } from './chromium.ts';
import { expectInView as expectSectionInView, followInPage } from './section-in-view.ts';

const guideFiles = readdirSync(join(appDir, 'guides'))
  .filter((f) => f.endsWith('.md'))
  .sort();
const guideMarkdown = guideFiles.map((f) => readFileSync(join(appDir, 'guides', f), 'utf8'));
const guideTitles = [...guideMarkdown.map((md) => /^# (.+)$/m.exec(md)![1]!.trim()), KNOWN_DIFFERENCES_TITLE];
interface Measured {
  text: string;
  language: string | null;
  width: number;
  clipped: boolean;
  highlighted: number;
}

/** Each guide's fenced blocks, as their text: what its highlighted blocks must still read. */
const guideBlocks = guideMarkdown.map(
  (md) => new Set([...md.matchAll(/^```\w*\n([\s\S]*?)\n```$/gm)].map((m) => m[1]!)),
);

let site: BuiltSite;
let page: Page;

beforeAll(async () => {
  site = await openBuiltSite();
  page = site.page;
});

afterAll(async () => {
  await site?.close();
});

/** A fresh load of `path` (about:blank first, so nothing of the last page stays). */
async function freshLoad(path: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(new URL(path, site.url).href, { waitUntil: 'load' });
  await page.getByTestId('menu-item-label').first().waitFor();
}

/** The route's heading or section is on screen, near the top (where a link should land). */
const expectInView = (route: string) => expectSectionInView(page, route);

/** Follows `route` in the loaded site (loaded first if it is not), as a click on its link does. */
async function follow(route: string): Promise<void> {
  if (!page.url().startsWith(site.url)) await freshLoad('/');
  await followInPage(page, route);
}

/** Every menu link of the guides (sub-sections too): each guide's group opened in turn. */
async function guideMenuLinks(): Promise<string[]> {
  await freshLoad('/');
  const links = new Set<string>();
  for (const title of guideTitles) {
    const route = sectionRoute(title);
    await page.getByTestId('menu-item-label').filter({ hasText: title }).first().click();
    await page.waitForFunction((r) => location.hash === r, route);
    const hrefs = await page.evaluate(() =>
      [...document.querySelectorAll('a[href^="#/"]')].map((a) => a.getAttribute('href')!),
    );
    for (const href of hrefs) if (href === route || href.startsWith(`${route}/`)) links.add(href);
  }
  return [...links];
}

describe('the guides in Chromium at 1400 px', () => {
  it('each menu link of the guides shows its section, followed in the page or loaded fresh', async () => {
    const links = await guideMenuLinks();
    // Every guide and each of its sections (the known differences have one per ledger entry).
    expect(links.length).toBeGreaterThan(guideTitles.length + 20);
    for (const title of guideTitles) expect(links).toContain(sectionRoute(title));
    // Followed in the loaded page (a click sets the hash; Redoc finds and scrolls to the section
    // the same way it does for the hash of a fresh load), every link: one parse of the 3 MB page,
    // not one per link.
    for (const link of links) await follow(link);
    // Loaded fresh (a shared or bookmarked link), the last section of each guide, the one furthest
    // into it: Redoc must render down to it before it can scroll there.
    for (const title of guideTitles) {
      const route = sectionRoute(title);
      const deepest = links.filter((link) => link.startsWith(`${route}/`)).at(-1) ?? route;
      await freshLoad(`/${deepest}`);
      await expectInView(deepest);
    }
  }, 300_000);

  it('headings keep their code in the menu and in their deep links', async () => {
    // Every `## ` heading of the guides that holds code: its menu label and its link carry the code.
    const withCode = guideMarkdown.flatMap((md, i) =>
      [...md.matchAll(/^## (.*`.*)$/gm)].map((m) => ({ guide: guideTitles[i]!, heading: m[1]! })),
    );
    expect(withCode.length).toBeGreaterThan(4);
    for (const { guide, heading } of withCode) {
      const label = heading.replace(/`/g, '');
      const codeWords = [...heading.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.toLowerCase());
      await follow(sectionRoute(guide));
      const item = page
        .locator(`a[href^="${sectionRoute(guide)}/"]`)
        .filter({ hasText: label })
        .first();
      await item.waitFor({ timeout: 15_000 });
      expect((await item.innerText()).trim(), `menu label of "${heading}"`).toBe(label);
      const href = (await item.getAttribute('href'))!;
      for (const word of codeWords) expect(href, `deep link of "${heading}"`).toContain(word.replace(/\s+/g, '-'));
      // Followed in the loaded page: Redoc finds the section of a hash the same way on a fresh
      // load, which the test above proves for the deepest section of each guide.
      await follow(href);
    }
  }, 300_000);

  it('a section path (/verifying-webhooks) leads to the section, as its hash URL', async () => {
    await freshLoad('/verifying-webhooks');
    expect(new URL(page.url()).hash).toBe('#/verifying-webhooks');
    await expectInView('#/verifying-webhooks');
  });

  it('the front page leads to a working receiver, a paced live contract run and the known differences', async () => {
    for (const [text, route] of [
      ['Verifying webhooks', '#/verifying-webhooks'],
      ['Running the contract suite against your tenant', '#/running-the-contract-suite-against-your-tenant'],
      ["paced to the tenant's rate limit", '#/running-the-contract-suite-against-your-tenant/pacing-to-the-rate-limit'],
      [KNOWN_DIFFERENCES_TITLE, '#/known-differences-from-the-contract'],
    ] as const) {
      // Back to the front page before each link.
      await follow('#/');
      await page.locator(`[data-section-id="/"] a[href="${route}"]`).filter({ hasText: text }).first().click();
      await expectInView(route);
    }
  });

  it('guide code uses the width, is highlighted, reads exactly as its source and no line is clipped', async () => {
    for (const [index, title] of guideTitles.slice(0, -1).entries()) {
      const blocks = guideBlocks[index]!;
      await follow(sectionRoute(title));
      // Redoc fills in only the sections near the reader: scroll through the guide's sections as a
      // reader would, measuring what each shows, until every block of the guide was seen (a block
      // that never renders, or renders as other text, fails here by its first line).
      const route = sectionRoute(title).slice(1); // its section id: "/slug"
      const seen = new Map<string, Measured>();
      const measure = () =>
        page.evaluate(
          (texts): Measured[] =>
            [...document.querySelectorAll('pre.site-code')]
              .filter((pre) => texts.includes(pre.textContent ?? ''))
              .map((pre) => ({
                text: pre.textContent ?? '',
                language: pre.getAttribute('data-language'),
                width: pre.clientWidth,
                clipped: pre.scrollWidth > pre.clientWidth,
                highlighted: pre.querySelectorAll('[class^="hljs-"]').length,
              })),
          [...blocks],
        );
      await expect
        .poll(
          async () => {
            const sections = await page.evaluate(
              (route) =>
                [...document.querySelectorAll('[data-section-id]')]
                  .map((el) => el.getAttribute('data-section-id')!)
                  .filter((id) => id === route || id.startsWith(`${route}/`)),
              route,
            );
            for (const id of sections) {
              await page.evaluate(
                (id) => document.querySelector(`[data-section-id="${CSS.escape(id)}"]`)?.scrollIntoView(),
                id,
              );
              for (const block of await measure()) seen.set(block.text, block);
            }
            return [...blocks].filter((text) => !seen.has(text)).map((text) => text.split('\n')[0]);
          },
          { timeout: 30_000, message: `${title}: every block should render and read exactly as its source` },
        )
        .toEqual([]);
      for (const block of seen.values()) {
        const where = `${title}: ${block.text.split('\n')[0]}`;
        expect(block.clipped, `${where}: a line is wider than the block`).toBe(false);
        expect(block.width, `${where}: the block should use the width, not half of it`).toBeGreaterThan(900);
        // (A shell line of plain words, `pnpm contract`, has nothing to colour.)
        if (['ts', 'yaml'].includes(block.language ?? ''))
          expect(block.highlighted, `${where}: not highlighted`).toBeGreaterThan(0);
      }
    }
  }, 300_000);
});

describe('search', () => {
  /** The hits of `query`, in the dialog of the loaded site, closed again after (no reload per search). */
  async function search(query: string): Promise<string[]> {
    await follow('#/');
    const dialog = page.getByTestId('search-dialog');
    await page.getByTestId('search-trigger').click();
    const input = dialog.locator('input').first();
    // An earlier query may still be in the box: it is cleared, and no hit may be left, before this one is entered.
    await input.fill('');
    const items = dialog.locator('[data-component-name="Search/SearchItem"]');
    await expect.poll(() => items.count(), { message: 'no hit left from an earlier search' }).toBe(0);
    await input.fill(query);
    await items.first().waitFor({ timeout: 15_000 });
    const hits = await items.evaluateAll((els) => els.map((e) => (e as HTMLElement).innerText.replace(/\s+/g, ' ')));
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    return hits;
  }

  it('keeps the words of a paragraph apart', async () => {
    const entry = await search('entry of the drift ledger');
    expect(entry.join('\n')).toContain('an entry of the drift ledger');
    expect(entry.join('\n')).not.toMatch(/anentry/);
    const redis = await search('Redis');
    expect(redis.join('\n')).not.toMatch(/ofRedis|onRedis/);
    expect(redis.join('\n')).toMatch(/crash of Redis/);
  });

  it('shows no internal sample markers', async () => {
    const hits = (await search('iterate')).join('\n');
    expect(hits).not.toMatch(/sample:|quick-start\.ts#/);
    expect(hits).toContain('iterate');
  });

  it('finds the pagination content when searching "paginate"', async () => {
    const hits = await search('paginate');
    expect(hits.some((h) => h.includes('List submissions: paginate with iterate()'))).toBe(true);
    expect(hits.some((h) => h.includes('List the submissions of a form') && h.includes('paginates'))).toBe(true);
  });
});
