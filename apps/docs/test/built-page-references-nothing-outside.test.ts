// The offline check finds every way a page could fetch from another host, leaves text links
// alone, and the built dist/index.html passes it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { distDir } from '../src/build.ts';
import { findExternalReferences, rewriteRuntimeFetches, telemetryDisabled } from '../src/offline.ts';

describe('findExternalReferences', () => {
  it.each([
    ['a script from a CDN', '<script src="https://cdn.example.com/redoc.js"></script>'],
    ['a protocol-relative script', '<script src="//cdn.example.com/x.js"></script>'],
    ['a stylesheet', '<link rel="stylesheet" href="https://example.com/a.css">'],
    ['a module preload', '<link rel="modulepreload" href="https://example.com/a.js" />'],
    ['an image', '<img src="https://example.com/logo.png">'],
    ['a CSS url()', '<style>body{background:url("https://example.com/bg.png")}</style>'],
    ['a CSS @import', "<style>@import url('https://example.com/x.css');</style>"],
    ['an ES module import', '<script type="module">import { hydrate } from "https://example.com/x.js";</script>'],
    ['Google Fonts', '<style>.x{font-family:"Roboto"} /* fonts.googleapis.com */</style>'],
    // The document Redoc renders at run time is a JSON string in the page: HTML in it is escaped.
    [
      'an image in the JSON-escaped document',
      '<script>const __redoc_definition = {"description":"\\u003cimg src=\\"https:\\/\\/example.com\\/x.png\\">"}</script>',
    ],
    [
      'a Markdown image in the document',
      '<script>const d = {"description":"![logo](https://example.com/x.png)"}</script>',
    ],
    ['a URL behind character references', '<img src="&#104;ttps&colon;//example.com/x.png">'],
    ['an image whose attribute follows a slash', '<img/src="//example.com/x.png">'],
    ['a srcset', '<img src="a.png" srcset="a.png 1x, https://example.com/b.png 2x">'],
    ['an SVG image', '<svg><image href="https://example.com/x.png"/></svg>'],
    ['a video poster', '<video poster="https://example.com/x.png"></video>'],
  ])('reports %s', (_what, html) => {
    expect(findExternalReferences(html)).not.toEqual([]);
  });

  it('leaves links in text and inline data alone', () => {
    const html =
      '<a href="https://github.com/forms-api-kit/forms-api-kit">repo</a><img src="data:image/svg+xml;base64,AAAA"><svg xmlns="http://www.w3.org/2000/svg"></svg>';
    expect(findExternalReferences(html)).toEqual([]);
  });

  it('rewrites the badge Redoc would load from its CDN to inline data', () => {
    const out = rewriteRuntimeFetches('x="https://cdn.redoc.ly/redoc/logo-mini-full.svg"');
    expect(out).toMatch(/^x="data:image\/svg\+xml;base64,/);
  });
});

describe.skipIf(!existsSync(join(distDir, 'index.html')))('the built dist/index.html', () => {
  const html = existsSync(join(distDir, 'index.html')) ? readFileSync(join(distDir, 'index.html'), 'utf8') : '';

  it('references no resource on another host and has telemetry off', () => {
    expect(findExternalReferences(html)).toEqual([]);
    expect(telemetryDisabled(html)).toBe(true);
  });

  it('carries the forms-api-kit title and brand colours', () => {
    expect(html).toContain('<title>forms-api-kit · API reference</title>');
    expect(html).toContain('--color-brand-8: #0b6e4f;');
  });
});
