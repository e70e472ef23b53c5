// The forms-api-kit look of the site: page title, logo (an inline SVG, so nothing is fetched)
// and the brand palette that the template maps onto Redoc's CSS variables.
export const SITE_TITLE = 'forms-api-kit · API reference';
export const SITE_DESCRIPTION =
  'Reference and guides of the forms service open API and its signed submission.created webhook, by forms-api-kit.';

/** Greens from light (1) to dark (11), in the slots of Redoc's `--color-brand-N` scale. */
export const BRAND_PALETTE = [
  '#e8f5ef',
  '#c9e8d9',
  '#9fd5bb',
  '#6fbf99',
  '#3fa877',
  '#14915c',
  '#0f7a4d',
  '#0b6e4f',
  '#095a40',
  '#074632',
  '#053324',
] as const;

export const BRAND_COLOR = BRAND_PALETTE[7];

const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="220" height="40" viewBox="0 0 220 40">
<rect x="2" y="6" width="28" height="28" rx="6" fill="${BRAND_COLOR}"/>
<path d="M9 14h14M9 20h14M9 26h8" stroke="#fff" stroke-width="3" stroke-linecap="round"/>
<text x="40" y="27" font-family="system-ui,-apple-system,'Segoe UI',sans-serif" font-size="20" font-weight="600" fill="${BRAND_COLOR}">forms-api-kit</text>
</svg>`;

const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="${BRAND_COLOR}"/><path d="M8 10h16M8 16h16M8 22h9" stroke="#fff" stroke-width="3" stroke-linecap="round"/></svg>`;

const dataUri = (svg: string): string => `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;

export const LOGO_DATA_URI = dataUri(LOGO_SVG);
export const FAVICON_DATA_URI = dataUri(FAVICON_SVG);

/** Stands in for the "API docs by" badge that Redoc would load from a CDN. */
export const ATTRIBUTION_DATA_URI = dataUri(
  `<svg xmlns="http://www.w3.org/2000/svg" width="56" height="16" viewBox="0 0 56 16"><text x="0" y="12" font-family="system-ui,sans-serif" font-size="12" font-weight="600" fill="#555">Redoc</text></svg>`,
);

/** CSS that maps the palette onto Redoc's variables; injected after Redoc's own styles. */
export function brandCss(): string {
  const scale = BRAND_PALETTE.map((color, i) => `--color-brand-${i + 1}: ${color};`).join(' ');
  return `:root:root { ${scale} --link-color-primary-legacy: ${BRAND_PALETTE[7]}; --link-color-primary-hover-legacy: ${BRAND_PALETTE[8]}; --link-color-primary-pressed-legacy: ${BRAND_PALETTE[9]}; }`;
}
