// Keeps the built page self-contained: rewrites the few resources Redoc would fetch at run time
// to inline data, then finds any reference left that would make a browser load something from
// another host. Links in text (<a href>) are fine: nothing is fetched until a reader clicks.
import { ATTRIBUTION_DATA_URI } from './brand.ts';

/** Run-time fetches built into Redoc's bundle, and what stands in for them. */
const REWRITES: ReadonlyArray<{ find: string; replace: string; why: string }> = [
  {
    find: 'https://cdn.redoc.ly/redoc/logo-mini-full.svg',
    replace: ATTRIBUTION_DATA_URI,
    why: 'the "API docs by" badge image',
  },
  {
    find: 'https://cdn.redoc.ly/redoc/logo-mini.svg',
    replace: ATTRIBUTION_DATA_URI,
    why: 'the small variant of the same badge',
  },
  {
    // Icon sets for Markdown icons, which this site does not use; pointed at the site itself so
    // that any future use shows up as a local 404 in the browser test, never as an outside fetch.
    find: 'https://cdn.redocly.com/icons/',
    replace: './redoc-icons/',
    why: 'icon sets of Markdown icons',
  },
];

export function rewriteRuntimeFetches(html: string): string {
  let out = html;
  for (const { find, replace } of REWRITES) out = out.split(find).join(replace);
  return out;
}

export interface ExternalReference {
  what: string;
  reference: string;
}

/** Hosts whose mere mention in the page means a fetch at run time (fonts, CDNs). */
const FETCHING_HOSTS = [
  'fonts.googleapis.com',
  'fonts.gstatic.com',
  'cdn.redoc.ly',
  'cdn.redocly.com',
  'unpkg.com',
  'cdn.jsdelivr.net',
];

const RESOURCE_PATTERNS: ReadonlyArray<{ what: string; pattern: RegExp }> = [
  { what: 'script src', pattern: /<script\b[^>]*\bsrc\s*=\s*["']?(https?:)?\/\/[^"'\s>]+/gi },
  { what: 'link href (stylesheet, preload, icon)', pattern: /<link\b[^>]*\bhref\s*=\s*["']?(https?:)?\/\/[^"'\s>]+/gi },
  {
    what: 'img/iframe/source src',
    pattern: /<(?:img|iframe|source|video|audio|embed)\b[^>]*\bsrc\s*=\s*["']?(https?:)?\/\/[^"'\s>]+/gi,
  },
  { what: 'CSS url()', pattern: /url\(\s*["']?(?:https?:)?\/\/[^"')\s]+/gi },
  { what: 'CSS @import', pattern: /@import\s+(?:url\()?\s*["'](?:https?:)?\/\/[^"']+/gi },
  { what: 'ES module import', pattern: /\bimport\s*(?:[^'"]*\bfrom\s*)?["']https?:\/\/[^"']+/g },
];

export function findExternalReferences(html: string): ExternalReference[] {
  const found: ExternalReference[] = [];
  for (const { what, pattern } of RESOURCE_PATTERNS) {
    for (const match of html.matchAll(pattern)) found.push({ what, reference: match[0].slice(0, 160) });
  }
  for (const host of FETCHING_HOSTS) {
    if (html.includes(host)) found.push({ what: 'host that serves run-time assets', reference: host });
  }
  return found;
}

/** Redoc's telemetry is off only when build-docs wrote `disableTelemetry: true` into its options. */
export function telemetryDisabled(html: string): boolean {
  return /__redoc_options\s*=\s*\{[^\n]*"disableTelemetry":true/.test(html);
}
