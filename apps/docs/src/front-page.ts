// The front page's way in: the site opens on the API's own introduction (the spec's
// info.description); before it, links to what a reader comes for, each a section of this site.
import type { Guide } from './guides.ts';

const slug = (text: string) => text.toLowerCase().trim().replace(/\s+/g, '-');

/** The hash route Redoc gives a tag section (its name, lower-cased, spaces as dashes), or a `## ` heading of it. */
export function sectionRoute(title: string, heading?: string): string {
  return heading === undefined ? `#/${slug(title)}` : `#/${slug(title)}/${slug(heading)}`;
}

/** Where the front page sends a reader for a paced live run: the contract suite guide's pacing section (its title and heading). */
export const PACING_ROUTE = sectionRoute('Running the contract suite against your tenant', 'Pacing to the rate limit');

/** What each guide gives a reader, by slug; a guide not named here is listed by its title alone. */
const PURPOSES: Record<string, string> = {
  'quick-start': 'a typed client for every operation, every page of submissions with `iterate()`',
  'verifying-webhooks': 'a working receiver: Express, Fastify or any Fetch API server, with a replay store',
  'never-lose-a-submission':
    'every submission reaches your system once, however its webhook fared: a receiver that stores each delivery, on Redis, and a reconciler for those that never came',
  sandbox: 'a local tenant that sends signed webhooks, following the contract or behaving like the service',
  'contract-suite': `check your tenant against this reference, from your CI or this repository, [paced to the tenant's rate limit](${PACING_ROUTE}), with its reports`,
  'known-differences': 'every known way the live service differs from the contract, and what to do',
};

export function startHere(guides: readonly Guide[]): string {
  const items = guides.map(
    (g) => `- [${g.title}](${sectionRoute(g.title)})${PURPOSES[g.slug] ? `: ${PURPOSES[g.slug]}.` : ''}`,
  );
  return ['**Start here.**', '', ...items, ''].join('\n');
}
