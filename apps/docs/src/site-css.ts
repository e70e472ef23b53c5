// The site's own CSS, injected after Redoc's: the layout of prose sections (guides, the known
// differences, the front page) and the colours of the code highlighted at build time.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * Redoc lays every section out as a middle column beside a right panel for request samples. A
 * section without samples (a guide, a tag's text) keeps an empty right panel, so its code was cut
 * at about 50 characters beside an empty column. Such a section gets the whole width instead:
 * text stays at a readable measure, code blocks and tables use the width. A guide's code wraps its
 * longest lines rather than hide them at 1280 px; an identifier in text (inline code) never wraps,
 * as Chromium would break `X-Webhook-Signature` at a hyphen and Redoc lets code break anywhere.
 */
export const LAYOUT_CSS = `
div:has(> [data-testid="middle-panel"]):has(> [data-testid="right-panel"]:empty) > [data-testid="right-panel"] { display: none; }
div:has(> [data-testid="middle-panel"]):has(> [data-testid="right-panel"]:empty) > [data-testid="middle-panel"] {
  width: 100%; max-width: 100%; flex: 1 1 auto; padding-right: 32px; box-sizing: border-box;
}
[data-testid="middle-panel"] [data-component-name="Markdown/Markdown"] > :is(p, ul, ol, blockquote, h1, h2, h3, h4) { max-width: 52rem; }
pre.site-code { overflow-wrap: anywhere; padding: 12px 14px; border-radius: 6px; font-size: 13px; line-height: 20px; }
pre.site-code > code { background: none; padding: 0; font-size: inherit; white-space: inherit; border: 0; }
main :not(pre) > code { white-space: nowrap; word-break: normal; overflow-wrap: normal; }
/* Redoc's Markdown styles set white-space on pre with a more specific selector. */
pre.site-code, pre.site-code > code { white-space: pre-wrap !important; }
@media (max-width: 50rem) { main { padding-bottom: 96px; } }
`;

/** Prefixes every selector of a stylesheet (a plain one: rules, no at-rules) with `scope`. */
export function scopeCss(css: string, scope: string): string {
  return css.replace(/\/\*[\s\S]*?\*\//g, '').replace(
    /([^{}]+)\{/g,
    (_, selectors: string) =>
      `${selectors
        .split(',')
        .map((s) => `${scope} ${s.trim()}`)
        .join(', ')} {`,
  );
}

/** highlight.js's GitHub themes: light by default, dark when Redoc's colour mode is dark (`html.dark`). */
export function highlightCss(): string {
  const light = readFileSync(require.resolve('highlight.js/styles/github.css'), 'utf8');
  const dark = readFileSync(require.resolve('highlight.js/styles/github-dark.css'), 'utf8');
  return `${scopeCss(light, 'html')}\n${scopeCss(dark, 'html.dark')}`;
}

export function siteCss(): string {
  return `${LAYOUT_CSS}\n${highlightCss()}`;
}
