// Launches Debian's Chromium through playwright-core for the browser tests. Installs nothing:
// a missing browser is a clear failure that says how to get one.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { distDir } from '../src/build.ts';
import { startStaticServer } from '../src/static-server.ts';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export function chromiumMissingMessage(path = CHROMIUM_PATH): string | undefined {
  if (existsSync(path)) return undefined;
  return (
    `Chromium is not installed at ${path}. The docs browser test drives Debian's Chromium; ` +
    'install it with `apt-get install -y chromium` (as root, after `apt-get update`), ' +
    'or run `pnpm chromium` in apps/docs. Never `npx playwright install`.'
  );
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Browser> {
  const missing = chromiumMissingMessage();
  if (missing) throw new Error(missing);
  // A fresh profile each run: no state from earlier runs, and nothing left behind.
  const userDataDir = mkdtempSync(join(tmpdir(), 'forms-api-docs-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      // Without this Chromium phones home at start-up, and this closed network refuses it.
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

export interface BuiltSite {
  /** A page of a fresh Chromium that reaches the served site and nothing else. */
  page: Page;
  /** The site's address on 127.0.0.1. */
  url: string;
  close(): Promise<void>;
}

/** Serves the built site (apps/docs/dist) on loopback and opens one page on it; any other request is refused. */
export async function openBuiltSite(): Promise<BuiltSite> {
  if (!existsSync(join(distDir, 'index.html')))
    throw new Error('apps/docs/dist/index.html is missing: run `pnpm docs:build` first');
  const server = await startStaticServer(distDir);
  const browser = await launchChromium().catch(async (error: unknown) => {
    await server.close();
    throw error;
  });
  const page = await browser.context.newPage();
  await page.route('**/*', (route) =>
    route.request().url().startsWith(server.url) ? route.continue() : route.abort('blockedbyclient'),
  );
  return {
    page,
    url: server.url,
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}
