// Turns the bundled spec into the document the site renders: the guides become tags with
// Markdown descriptions (Redoc shows them as sections), grouped before the API reference with
// x-tagGroups, and the info gets the forms-api-kit logo.
import { PATH_ITEM_METHODS } from '@forms-api/spec/path-item-methods';
import { LOGO_DATA_URI } from './brand.ts';
import type { CodeSample, OperationVariant } from './code-samples.ts';
import type { Guide } from './guides.ts';
import { fail, type DocsResult } from './errors.ts';
import { prepareDescriptions } from './site-markdown.ts';
import { startHere } from './front-page.ts';

type Json = Record<string, any>;

export const GUIDES_GROUP = 'Guides';
export const REFERENCE_GROUP = 'API reference';

/** Every operationId of the document's paths, in order. */
export function operationIdsOf(spec: Json): string[] {
  return Object.values<Json>(spec.paths ?? {}).flatMap((item) =>
    PATH_ITEM_METHODS.flatMap((m) => (item[m]?.operationId ? [item[m].operationId as string] : [])),
  );
}

/** Every tag the document uses, declared ones first, in order. */
export function tagsInUse(spec: Json): string[] {
  const names: string[] = (spec.tags ?? []).map((t: Json) => t.name);
  const items = [...Object.values<Json>(spec.paths ?? {}), ...Object.values<Json>(spec.webhooks ?? {})];
  for (const item of items) {
    for (const method of PATH_ITEM_METHODS) {
      for (const tag of item[method]?.tags ?? []) if (!names.includes(tag)) names.push(tag);
    }
  }
  return names;
}

export interface SiteSamples {
  samples?: ReadonlyMap<string, CodeSample[]>;
  variants?: ReadonlyMap<string, OperationVariant[]>;
}

export function siteSpec(
  bundle: Json,
  guides: Guide[],
  { samples = new Map(), variants = new Map() }: SiteSamples = {},
): DocsResult<Json> {
  const spec: Json = structuredClone(bundle);
  // Each operation shows its client sample and curl line (Redoc's x-codeSamples, beside it) and its
  // further client samples (every page with iterate(), …) at the end of its description.
  for (const item of Object.values<Json>(spec.paths ?? {})) {
    for (const method of PATH_ITEM_METHODS) {
      const operation = item[method];
      if (!operation?.operationId) continue;
      const list = samples.get(operation.operationId);
      if (list) operation['x-codeSamples'] = list;
      for (const variant of variants.get(operation.operationId) ?? []) {
        operation.description =
          `${operation.description ?? ''}\n\n**${variant.title} with \`@forms-api/client\`:**\n\n\`\`\`ts\n${variant.source}\n\`\`\`\n`.trimStart();
      }
    }
  }
  // The bundle's "generated, do not edit" note is for the repository, not for readers.
  delete spec['x-generated'];
  const referenceTags = tagsInUse(spec);
  for (const guide of guides) {
    if (referenceTags.includes(guide.title)) {
      return fail('guide_invalid', `guide "${guide.title}" has the name of an API tag; rename the guide`, {
        context: { guide: guide.title },
      });
    }
  }
  spec.info = {
    ...spec.info,
    // The front page leads to the guides before the API's introduction.
    description: guides.length > 0 ? `${startHere(guides)}\n${spec.info?.description ?? ''}` : spec.info?.description,
    'x-logo': { url: LOGO_DATA_URI, altText: 'forms-api-kit', href: './' },
  };
  spec.tags = [...guides.map((g) => ({ name: g.title, description: g.body })), ...(spec.tags ?? [])];
  // Every description is Markdown Redoc renders and indexes for search: prepared once, here.
  prepareDescriptions(spec);
  spec['x-tagGroups'] = [
    { name: GUIDES_GROUP, tags: guides.map((g) => g.title) },
    { name: REFERENCE_GROUP, tags: referenceTags },
  ];
  return { ok: true, value: spec };
}
