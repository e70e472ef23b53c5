// The check both browser tests make after following a link: its section is where a link lands.
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
