// `pnpm bench` (after `pnpm build`): how soon the built page shows something, and its first
// operation, in Chromium with a cold cache (a fresh profile per run), served from 127.0.0.1.
// Beside the site as docs:serve sends it (its brotli copy) it loads the same page uncompressed, as
// a host that does not compress sends it, and the same page with its script made inert (same
// bytes, same pre-rendered HTML, nothing run): the limit, what the browser needs to show it at all.
// Prints min / median / max over BENCH_RUNS runs (5 by default); it asserts nothing.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { distDir } from '../src/build.ts';
import { PRECOMPRESSED, writePrecompressed } from '../src/precompress.ts';
import { startStaticServer } from '../src/static-server.ts';
import { CHROMIUM_PATH, launchChromium } from '../test/chromium.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TIMEOUT_MS = 60_000;

if (!existsSync(join(distDir, 'index.html'))) {
  console.error('apps/docs/dist/index.html is missing: run `pnpm build` first (the benchmark loads the built page).');
  process.exit(1);
}

const site = JSON.parse(readFileSync(join(distDir, 'openapi.json'), 'utf8'));
const slug = (text: string) => text.toLowerCase().trim().replace(/\s+/g, '-');

/** The reference's first operation in the menu: the first of the first tag of "API reference". */
function firstOperation(): { route: string; heading: string } {
  const tag: string = site['x-tagGroups'].find((g: any) => g.name === 'API reference').tags[0];
  for (const item of Object.values<any>(site.paths))
    for (const operation of Object.values<any>(item))
      if (operation?.operationId && operation.tags?.[0] === tag)
        return { route: `#/${slug(tag)}/${operation.operationId.toLowerCase()}`, heading: operation.summary };
  throw new Error(`no operation is tagged ${tag}`);
}

const routes = [
  { name: 'front page', route: '', heading: `${site.info.title} (${site.info.version})` },
  { name: 'first operation', ...firstOperation() },
];

/** Network conditions of Chromium's emulation; none is the loopback as it is. */
const profiles: { name: string; network?: Network }[] = [
  { name: 'loopback' },
  // A good mobile or a modest home line: 10 Mbit/s down, 40 ms round trip.
  { name: '10 Mbit/s, 40 ms', network: { latency: 40, downloadThroughput: 1_250_000, uploadThroughput: 625_000 } },
];

interface Network {
  latency: number;
  downloadThroughput: number;
  uploadThroughput: number;
}

interface Variant {
  name: string;
  dir: string;
  /** Whether the operation page can show at all (the inert page never routes). */
  routes: boolean;
}

/** A copy of dist/ for a variant: `edit` changes its page, whose compressed copies are then remade or dropped. */
function copyOfSite(edit: (html: string) => string, compressed: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'forms-api-docs-bench-'));
  cpSync(distDir, dir, { recursive: true });
  const page = join(dir, 'index.html');
  writeFileSync(page, edit(readFileSync(page, 'utf8')));
  for (const { suffix } of PRECOMPRESSED) rmSync(page + suffix, { force: true });
  if (compressed) writePrecompressed(page);
  return dir;
}

interface Sample {
  fcp: number;
  shown: number;
  transferred: number;
  body: number;
}

/** One cold load: a fresh Chromium profile, the page opened at `url`, until `heading` is in view. */
async function load(url: string, heading: string | undefined, network: Network | undefined): Promise<Sample> {
  const browser = await launchChromium();
  try {
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Network.enable');
    if (network) await cdp.send('Network.emulateNetworkConditions', { offline: false, ...network });
    // Checked on every frame from the document's start: the time the heading was first on screen.
    // (A string, not a function: tsx would wrap a function's inner names in a helper the page lacks.)
    await page.addInitScript(`{
      const text = ${JSON.stringify(heading ?? null)};
      const check = () => {
        const hit = [...document.querySelectorAll('h1, h2')].find((h) => {
          if (text && h.textContent.trim() !== text) return false;
          const r = h.getBoundingClientRect();
          return r.width > 0 && r.bottom > 0 && r.top < innerHeight && h.checkVisibility();
        });
        if (hit) window.__shownAt = performance.now();
        else requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    }`);
    await page.goto(url, { waitUntil: 'commit', timeout: TIMEOUT_MS });
    await page.waitForFunction(() => (window as unknown as { __shownAt?: number }).__shownAt !== undefined, null, {
      timeout: TIMEOUT_MS,
    });
    // Wait for the paint entry too (it lands after the frame it measures).
    await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, null, {
      timeout: TIMEOUT_MS,
    });
    // The sizes are final once the document has loaded.
    await page.waitForLoadState('load', { timeout: TIMEOUT_MS });
    return await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return {
        fcp: performance.getEntriesByName('first-contentful-paint')[0]!.startTime,
        shown: (window as unknown as { __shownAt: number }).__shownAt,
        transferred: nav.transferSize,
        body: nav.decodedBodySize,
      };
    });
  } finally {
    await browser.close();
  }
}

const spread = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const f = (n: number) => `${Math.round(n)}`;
  return `${f(sorted[0]!)} / ${f(sorted[Math.floor(sorted.length / 2)]!)} / ${f(sorted.at(-1)!)}`;
};
const kib = (bytes: number) => `${Math.round(bytes / 1024)} KiB`;

const copies = {
  // As a host that does not compress sends it (docs:serve before the precompressed copies).
  uncompressed: copyOfSite((html) => html, false),
  // The same bytes with the module script made inert: parsed, nothing run.
  inert: copyOfSite((html) => html.replace('<script type="module">', '<script type="text/plain">'), true),
};
const variants: Variant[] = [
  { name: 'site as docs:serve sends it (brotli)', dir: distDir, routes: true },
  { name: 'site uncompressed', dir: copies.uncompressed, routes: true },
  { name: 'limit: same page, script inert (brotli)', dir: copies.inert, routes: false },
];

console.log(
  `docs first paint: ${RUNS} cold loads per row, ${execFileSync(CHROMIUM_PATH, ['--version'], { encoding: 'utf8' }).trim()}, ${cpus().length} cores, ` +
    `load ${loadavg()[0]!.toFixed(2)}; times in ms from navigation start, min / median / max`,
);
const rows: Record<string, string>[] = [];
try {
  for (const profile of profiles)
    for (const route of routes)
      for (const variant of variants) {
        const server = await startStaticServer(variant.dir);
        try {
          const samples: Sample[] = [];
          // The inert page never routes: on the operation's route it shows the front page's heading.
          const heading = variant.routes ? route.heading : undefined;
          for (let run = 0; run < RUNS; run++)
            samples.push(await load(`${server.url}${route.route}`, heading, profile.network));
          rows.push({
            network: profile.name,
            route: route.name,
            page: variant.name,
            'first contentful paint': spread(samples.map((s) => s.fcp)),
            'its heading in view': variant.routes ? spread(samples.map((s) => s.shown)) : '(never routes)',
            transferred: kib(samples[0]!.transferred),
            'page size': kib(samples[0]!.body),
          });
        } finally {
          await server.close();
        }
      }
} finally {
  for (const dir of Object.values(copies)) rmSync(dir, { recursive: true, force: true });
}
console.table(rows);
