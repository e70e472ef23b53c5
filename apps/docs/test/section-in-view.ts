// What both browser tests do to follow a link in the loaded site, and the check they make after it:
// its section is where a link lands.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The route's heading or section is on screen, near the top (where a link should land). */
export async function expectInView(page: Page, route: string): Promise<void> {
  const id = route.slice(1);
  await expect
    .poll(
      () =>
        page.evaluate((id) => {
          const el = document.getElementById(id) ?? document.querySelector(`[data-section-id="${CSS.escape(id)}"]`);
          if (!el) return 'not rendered';
          const top = el.getBoundingClientRect().top;
          return top >= -2 && top < window.innerHeight / 2 ? 'in view' : `at ${Math.round(top)} px`;
        }, id),
      { timeout: 15_000, message: `${route} should be in view` },
    )
    .toBe('in view');
}

/** The route the site's menu marks active: the one the site has rendered. */
const activeRoute = (page: Page) =>
  page.evaluate(() => {
    const href = document
      .querySelector('li[data-testid="menu-item-label"][data-active="true"]')
      ?.closest('a')
      ?.getAttribute('href');
    return href ? `#${href.replace(/^#/, '')}` : 'none';
  });

/**
 * Follows `route` in the loaded site, as a click on its link does: the hash changes and Redoc
 * scrolls to the section, without parsing the 3 MB page again.
 */
export async function followInPage(page: Page, route: string): Promise<void> {
  await page.evaluate((hash) => {
    location.hash = hash;
  }, route);
  // Chromium scrolls to a heading with the hash's id before Redoc renders the new hash. Redoc must
  // have rendered it before anything is read or the next hash is set: if the next one is the hash
  // it rendered last, Redoc sees no change and never scrolls to it.
  await expect
    .poll(() => activeRoute(page), { timeout: 15_000, message: `the menu should mark ${route} active` })
    .toBe(route);
  await expectInView(page, route);
}
