// The guides are read from guides/*.md and placed before the API reference as tag sections.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appDir } from '../src/build.ts';
import { parseGuide, readGuides } from '../src/guides.ts';
import { GUIDES_GROUP, REFERENCE_GROUP, siteSpec, tagsInUse } from '../src/site-spec.ts';

const bundle = {
  'x-generated': 'do not edit',
  openapi: '3.1.0',
  info: { title: 'T', version: '1' },
  tags: [{ name: 'Forms' }],
  paths: { '/a': { get: { tags: ['Forms'] }, post: { tags: ['Other'] } } },
  webhooks: { 'submission.created': { post: { tags: ['Integrations'] } } },
};

describe('guides', () => {
  it('takes slug from the file name and title from the first heading', () => {
    const guide = parseGuide('02-verifying-webhooks.md', '# Verifying webhooks\n\nBody *text*.\n');
    expect(guide).toEqual({
      ok: true,
      value: { slug: 'verifying-webhooks', title: 'Verifying webhooks', body: 'Body *text*.' },
    });
  });

  it('rejects a badly named file or a guide without a title, as values', () => {
    const badName = parseGuide('quick.md', '# Q\n\nx');
    expect(badName.ok || badName.error.kind).toBe('guide_invalid');
    const noTitle = parseGuide('01-q.md', 'no heading\n');
    expect(noTitle.ok ? '' : noTitle.error.message).toMatch(/starts with its title/);
  });

  it('reads the five shipped guides in order', () => {
    const guides = readGuides(join(appDir, 'guides'));
    if (!guides.ok) throw new Error(guides.error.message);
    expect(guides.value.map((g) => g.slug)).toEqual([
      'quick-start',
      'verifying-webhooks',
      'contract-suite',
      'sandbox',
      'never-lose-a-submission',
    ]);
  });
});

describe('siteSpec', () => {
  const guides = [{ slug: 'quick-start', title: 'Quick start', body: 'Hello' }];

  it('collects declared and used tags, including webhook tags', () => {
    expect(tagsInUse(bundle)).toEqual(['Forms', 'Other', 'Integrations']);
  });

  it('puts the guides in their own group before the API reference and adds the logo', () => {
    const spec = siteSpec(bundle, guides);
    if (!spec.ok) throw new Error(spec.error.message);
    expect(spec.value['x-generated']).toBeUndefined();
    expect(spec.value.tags[0]).toEqual({ name: 'Quick start', description: 'Hello' });
    expect(spec.value['x-tagGroups']).toEqual([
      { name: GUIDES_GROUP, tags: ['Quick start'] },
      { name: REFERENCE_GROUP, tags: ['Forms', 'Other', 'Integrations'] },
    ]);
    expect(spec.value.info['x-logo'].url).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(bundle.tags).toHaveLength(1);
  });

  it('refuses a guide named like an API tag', () => {
    const spec = siteSpec(bundle, [{ slug: 'forms', title: 'Forms', body: 'x' }]);
    expect(spec.ok || spec.error.kind).toBe('guide_invalid');
  });
});

describe('code samples', () => {
  it("puts each operation's client sample and curl line on it as x-codeSamples", async () => {
    const { readCodeSamples } = await import('../src/code-samples.ts');
    const { operationIdsOf } = await import('../src/site-spec.ts');
    const { createRequire } = await import('node:module');
    const real = createRequire(import.meta.url)('@forms-api/spec/openapi.json');
    const samples = readCodeSamples(operationIdsOf(real));
    if (!samples.ok) throw new Error(samples.error.message);
    const spec = siteSpec(real, [], { samples: samples.value });
    if (!spec.ok) throw new Error(spec.error.message);
    const list = spec.value.paths['/open/forms/{id}/submissions'].get['x-codeSamples'];
    expect(list.map((s: { lang: string; label: string }) => `${s.lang}/${s.label}`)).toEqual([
      'TypeScript/@forms-api/client',
      'curl/curl',
    ]);
    expect(list[0].source).toContain('forms.submissions.list(');
    expect(list[1].source).toMatch(/^curl /);
    expect(operationIdsOf(real).length).toBe(samples.value.size);
  });

  it('shows every page with iterate(), not only list(), on the list of submissions', async () => {
    const { readCodeSamples, readOperationVariants } = await import('../src/code-samples.ts');
    const { operationIdsOf } = await import('../src/site-spec.ts');
    const { createRequire } = await import('node:module');
    const real = createRequire(import.meta.url)('@forms-api/spec/openapi.json');
    const samples = readCodeSamples(operationIdsOf(real));
    const variants = readOperationVariants(operationIdsOf(real));
    if (!samples.ok || !variants.ok) throw new Error('samples unreadable');
    const spec = siteSpec(real, [], { samples: samples.value, variants: variants.value });
    if (!spec.ok) throw new Error(spec.error.message);
    const description: string = spec.value.paths['/open/forms/{id}/submissions'].get.description;
    // The block is highlighted HTML on the site: its text is the sample's.
    expect(description).toMatch(
      /\*\*Every page with `@forms-api\/client`:\*\*\n\n<pre class="hljs site-code" data-language="ts">/,
    );
    const text = description.replace(/<[^>]+>/g, '');
    expect(text).toContain('forms.submissions.iterate(11,');
    expect(text).toContain('paginates');
  });

  it('refuses a variant sample of an operation the spec does not have', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { readOperationVariants } = await import('../src/code-samples.ts');
    const dir = mkdtempSync(join(tmpdir(), 'docs-variants-'));
    writeFileSync(join(dir, 'listGhosts.every-page.ts'), 'x');
    const result = readOperationVariants(['listFormSubmissions'], dir);
    expect(result.ok ? '' : result.error.message).toMatch(/listGhosts\.every-page\.ts names no operation of the spec/);
  });

  it('refuses to build when an operation has no sample', async () => {
    const { readCodeSamples } = await import('../src/code-samples.ts');
    const missing = readCodeSamples(['listFormSubmissions', 'noSuchOperation']);
    expect(missing.ok ? '' : missing.error.message).toMatch(
      /noSuchOperation has no @forms-api\/client sample: add apps\/doc-check\/samples\/operations\/noSuchOperation.ts/,
    );
  });
});
