// Keeps the built page self-contained: rewrites the few resources Redoc would fetch at run time
// to inline data, then finds any reference left that would make a browser load something from
// another host. Links in text (<a href>) are fine: nothing is fetched until a reader clicks.
// The page is read as the browser will see it: Redoc renders the document it carries as an
// escaped JSON string, and an attribute may hide its URL behind character references.
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

/** The start of a URL on another host: a web scheme, or two slashes (a browser reads `\` as `/`). */
const OUTSIDE = String.raw`(?:https?:|[\/\\]{2})`;

const RESOURCE_PATTERNS: ReadonlyArray<{ what: string; pattern: RegExp }> = [
  { what: 'script src', pattern: new RegExp(String.raw`<script\b[^>]*\bsrc\s*=\s*["']?\s*${OUTSIDE}[^"'\s>]+`, 'gi') },
  {
    what: 'link href (stylesheet, preload, icon)',
    pattern: new RegExp(String.raw`<link\b[^>]*\bhref\s*=\s*["']?\s*${OUTSIDE}[^"'\s>]+`, 'gi'),
  },
  {
    // Any other element that fetches what an attribute names: images (srcset, SVG <image href>,
    // <use href>), frames, media and their posters, objects.
    what: 'src, srcset, poster, data or href of a fetching element',
    pattern: new RegExp(
      String.raw`<(?!a\s|area\s|link\s|script\s)[a-z][\w:-]*[\s/][^<>]*\b(?:src|srcset|poster|data|href|xlink:href)\s*=\s*["']?[^"'>]*?${OUTSIDE}[^"'\s>]+`,
      'gi',
    ),
  },
  { what: 'CSS url()', pattern: new RegExp(String.raw`url\(\s*["']?\s*${OUTSIDE}[^"')\s]+`, 'gi') },
  { what: 'CSS @import', pattern: new RegExp(String.raw`@import\s+(?:url\()?\s*["']\s*${OUTSIDE}[^"']+`, 'gi') },
  { what: 'ES module import', pattern: /\bimport\s*(?:[^'"]*\bfrom\s*)?["']https?:\/\/[^"']+/g },
  // Markdown in the document Redoc renders at run time: an image is fetched as soon as it shows.
  { what: 'Markdown image', pattern: new RegExp(String.raw`!\[[^\]\n]*\]\(\s*<?\s*${OUTSIDE}[^)\s]+`, 'gi') },
];

const NAMED_ENTITIES: Record<string, string> = {
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  amp: '&',
  sol: '/',
  colon: ':',
};

/** HTML character references decoded, as a browser decodes them in text and attribute values. */
export function decodeCharacterReferences(text: string): string {
  return text.replace(/&(?:#(\d+)|#x([\da-f]+)|([a-z]+));?/gi, (ref, dec?: string, hex?: string, name?: string) => {
    const code = dec !== undefined ? Number(dec) : hex !== undefined ? parseInt(hex, 16) : undefined;
    if (code !== undefined) return code <= 0x10ffff ? String.fromCodePoint(code) : ref;
    return NAMED_ENTITIES[name!.toLowerCase()] ?? ref;
  });
}

/** JSON and JavaScript string escapes decoded (`\u003c`, `\"`, `\/`, `\n`): the document Redoc renders. */
export function decodeStringEscapes(text: string): string {
  return text.replace(/\\(?:u([\da-fA-F]{4})|x([\da-fA-F]{2})|(.))/g, (_, u?: string, x?: string, c?: string) => {
    if (u !== undefined) return String.fromCharCode(parseInt(u, 16));
    if (x !== undefined) return String.fromCharCode(parseInt(x, 16));
    return c === 'n' ? '\n' : c === 't' ? '\t' : c === 'r' ? '\r' : c!;
  });
}

/** The page as written, its embedded strings decoded, and both with character references decoded. */
function browserViews(html: string): string[] {
  const strings = decodeStringEscapes(html);
  // Twice: Markdown may hold `&amp;lt;`-style references that the renderer decodes once more.
  return [
    html,
    strings,
    decodeCharacterReferences(html),
    decodeCharacterReferences(decodeCharacterReferences(strings)),
  ];
}

export function findExternalReferences(html: string): ExternalReference[] {
  const found = new Map<string, ExternalReference>();
  for (const view of browserViews(html)) {
    for (const { what, pattern } of RESOURCE_PATTERNS) {
      for (const match of view.matchAll(pattern)) {
        const reference = match[0].slice(0, 160);
        found.set(`${what}\u0000${reference}`, { what, reference });
      }
    }
  }
  for (const host of FETCHING_HOSTS) {
    if (browserViews(html).some((view) => view.includes(host)))
      found.set(host, { what: 'host that serves run-time assets', reference: host });
  }
  return [...found.values()];
}

/** Redoc's telemetry is off only when build-docs wrote `disableTelemetry: true` into its options. */
export function telemetryDisabled(html: string): boolean {
  return /__redoc_options\s*=\s*\{[^\n]*"disableTelemetry":true/.test(html);
}
