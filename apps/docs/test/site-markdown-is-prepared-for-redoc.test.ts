// Descriptions are prepared for Redoc at build time: comments dropped, soft line breaks folded
// (Redoc's search joined the lines without a space), code highlighted, and nothing else changed.
import { describe, expect, it } from 'vitest';
import { highlightedBlock, keepWhitespace, prepareDescriptions, prepareMarkdown } from '../src/site-markdown.ts';

describe('prepareMarkdown', () => {
  it('folds the lines of paragraphs and list items, keeps hard breaks, tables and headings', () => {
    const md =
      'The difference is an\nentry of the ledger.\n\n- a crash of\n  Redis loses it\n\n> quoted\n> twice\n\nhard  \nbreak\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n## Title\n';
    expect(prepareMarkdown(md)).toBe(
      'The difference is an entry of the ledger.\n\n- a crash of Redis loses it\n\n> quoted twice\n\nhard  \nbreak\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n## Title\n',
    );
  });

  it("writes a heading's code as its text, escaped, so Redoc's menu and deep link keep it", () => {
    expect(prepareMarkdown('## Express: `webhookMiddleware`\n\nKeep `this` code.\n')).toBe(
      '## Express: webhookMiddleware\n\nKeep `this` code.\n',
    );
    expect(prepareMarkdown('### By hand: `a_b<c>` and *more*\n')).toBe('### By hand: a\\_b\\<c\\> and *more*\n');
  });

  it('drops HTML comments such as sample markers', () => {
    expect(prepareMarkdown('Text.\n\n<!-- sample: client/quick-start.ts#iterate -->\n```ts\nx\n```\n')).not.toContain(
      'sample:',
    );
  });

  it('turns a fenced block into highlighted HTML that reads as the code', () => {
    const html = prepareMarkdown('```ts\nconst a = \'x\' && b < c; // "q"\n```\n');
    expect(html).toMatch(
      /^<pre class="hljs site-code" data-language="ts"><code class="language-ts"><span class="hljs-keyword">const<\/span>/,
    );
    const text = html
      .replace(/<[^>]+>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&amp;/g, '&');
    expect(text.trim()).toBe('const a = \'x\' && b < c; // "q"');
  });

  it('prepares descriptions but never example data', () => {
    const doc = {
      info: { description: 'a\nb' },
      components: { schemas: { S: { description: 'c\nd', example: { description: 'e\nf' } } } },
      paths: {
        '/x': {
          get: {
            responses: {
              200: {
                content: {
                  'application/json': { examples: { one: { description: 'g\nh', value: { description: 'i\nj' } } } },
                },
              },
            },
          },
        },
      },
    };
    prepareDescriptions(doc);
    expect(doc.info.description).toBe('a b');
    expect(doc.components.schemas.S.description).toBe('c d');
    expect(doc.components.schemas.S.example.description).toBe('e\nf');
    const example = doc.paths['/x'].get.responses[200].content['application/json'].examples.one;
    expect(example.description).toBe('g h');
    expect(example.value.description).toBe('i\nj');
  });
});

describe('keepWhitespace', () => {
  it('leaves no text node that is only whitespace between tags or entities, keeping the characters in order', () => {
    const out = keepWhitespace(
      '<span class="k">const</span> <span class="t">x</span>\n<span>y</span> &amp;&amp; &lt;z&gt;',
    );
    const text = (html: string) =>
      html
        .replace(/<[^>]+>/g, '')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
    expect(text(out)).toBe('const x\ny && <z>');
    for (const piece of out.split(/<[^>]*>|&(?:#\d+|[A-Za-z]+);/))
      expect(piece === '' || !/^\s+$/.test(piece), JSON.stringify(out)).toBe(true);
  });

  it('escapes what HTML needs in unknown languages too', () => {
    expect(highlightedBlock('a <b> & c', 'text')).toBe(
      '<pre class="hljs site-code" data-language="text"><code class="language-text">a &lt;b> & c</code></pre>',
    );
  });
});
