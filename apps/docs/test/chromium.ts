// Launches Debian's Chromium through playwright-core for the browser tests. Installs nothing:
// a missing browser is a clear failure that says how to get one.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export function chromiumMissingMessage(path = CHROMIUM_PATH): string | undefined {
  if (existsSync(path)) return undefined;
  return (
    `Chromium is not installed at ${path}. The docs browser test drives Debian's Chromium; ` +
    'install it with `apt-get install -y chromium` (as root, after `apt-get update`), ' +
    'or run apps/docs/scripts/ensure-chromium.sh. Never `npx playwright install`.'
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
