// Prepares a Markdown description for Redoc: drops HTML comments (doc-check's sample markers,
// which Redoc's search would show), folds soft line breaks (its search index joins the lines of a
// paragraph without a space: "an\nentry" became "anentry"), highlights fenced code at build
// time and writes a heading's code as text (the menu kept only the text before it). Only those spans are rewritten, at the positions the parser gives; the rest stays as is.
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import json from 'highlight.js/lib/languages/json';
import typescript from 'highlight.js/lib/languages/typescript';
import yaml from 'highlight.js/lib/languages/yaml';
import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { markdownText } from './markdown-text.ts';

hljs.registerLanguage('typescript', typescript);
hljs.registerLanguage('bash', bash);
hljs.registerLanguage('json', json);
hljs.registerLanguage('yaml', yaml);

/** Fence languages of the guides and the spec, and the grammar of each. */
const GRAMMARS: Record<string, string> = {
  ts: 'typescript',
  typescript: 'typescript',
  js: 'typescript',
  javascript: 'typescript',
  mjs: 'typescript',
  cjs: 'typescript',
  sh: 'bash',
  bash: 'bash',
  shell: 'bash',
  json: 'json',
  yaml: 'yaml',
  yml: 'yaml',
};

interface Edit {
  start: number;
  end: number;
  text: string;
}

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Redoc reads HTML in Markdown into nodes and drops every text node that is only whitespace,
 * splitting text at tags and at entities: `</span> <span>` lost its space, `</span>\n<span>` its
 * line break. So entities are kept to the two that must be (`&lt;`, and `&amp;` where it could start
 * one), and a whitespace-only run is moved, across tags only, into the nearest text beside it
 * (inside or outside a span: the characters keep their order, only a colour changes).
 */
export function keepWhitespace(html: string): string {
  const minimal = html
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;(?![#A-Za-z0-9])/g, '&');
  const tokens = minimal.split(/(<[^>]*>|&(?:#\d+|#x[\da-fA-F]+|[A-Za-z]+);)/);
  const isTag = (t: string) => t.startsWith('<');
  const isText = (t: string) => t !== '' && !isTag(t) && !/^&(?:#\d+|#x[\da-fA-F]+|[A-Za-z]+);$/.test(t);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (!isText(token) || !/^\s+$/.test(token)) continue;
    let j = i - 1;
    while (j >= 0 && (tokens[j] === '' || isTag(tokens[j]!))) j--;
    if (j >= 0 && isText(tokens[j]!) && !/^\s+$/.test(tokens[j]!)) {
      tokens[j] += token;
      tokens[i] = '';
      continue;
    }
    let k = i + 1;
    while (k < tokens.length && (tokens[k] === '' || isTag(tokens[k]!))) k++;
    if (k < tokens.length && isText(tokens[k]!)) {
      tokens[k] = token + tokens[k];
      tokens[i] = '';
    }
  }
  return tokens.join('');
}

/** A code block as HTML: highlighted when its language is known, escaped text otherwise. */
export function highlightedBlock(code: string, lang: string | null | undefined): string {
  const grammar = lang ? GRAMMARS[lang.toLowerCase()] : undefined;
  const inner = keepWhitespace(
    grammar ? hljs.highlight(code, { language: grammar, ignoreIllegals: true }).value : escapeHtml(code),
  );
  const language = escapeHtml(lang ?? 'text');
  // A <pre> HTML block runs to its </pre> in CommonMark, blank lines included; the code cannot
  // hold a literal </pre>, as it is escaped.
  return `<pre class="hljs site-code" data-language="${language}"><code class="language-${language}">${inner}</code></pre>`;
}

function walk(node: Nodes, visit: (node: Nodes) => void): void {
  visit(node);
  if ('children' in node) for (const child of node.children) walk(child as Nodes, visit);
}

/** Soft line breaks of a paragraph's source (with any container prefix, `>` or indentation) → one space. */
function foldParagraph(source: string): string {
  // A hard break (two trailing spaces or a backslash) stays a break.
  return source.replace(/(\\?)([ \t]*)\r?\n[ \t>]*/g, (line: string, backslash: string, trailing: string) =>
    backslash !== '' || trailing.length >= 2 ? line : ' ',
  );
}

/**
 * Redoc names a heading, in the menu and in its deep link, by the heading's first text node alone:
 * "Express: `webhookMiddleware`" became "Express:" and `#/verifying-webhooks/express:`. So the code
 * of a heading becomes its text (escaped, so it still reads as written), and the menu, the link and
 * the heading all carry the identifier.
 */
function headingCodeAsText(heading: Nodes): Edit[] {
  const edits: Edit[] = [];
  walk(heading, (node) => {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (node.type === 'inlineCode' && start !== undefined && end !== undefined)
      edits.push({ start, end, text: markdownText(node.value) });
  });
  return edits;
}

export function prepareMarkdown(markdown: string): string {
  const tree: Root = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const edits: Edit[] = [];
  walk(tree, (node) => {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start === undefined || end === undefined) return;
    if (node.type === 'html' && /^<!--[\s\S]*-->$/.test(node.value.trim())) edits.push({ start, end, text: '' });
    else if (node.type === 'code') edits.push({ start, end, text: highlightedBlock(node.value, node.lang) });
    else if (node.type === 'heading') edits.push(...headingCodeAsText(node));
    else if (node.type === 'paragraph') {
      const source = markdown.slice(start, end);
      const folded = foldParagraph(source);
      if (folded !== source) edits.push({ start, end, text: folded });
    }
  });
  // Edits never overlap (a paragraph holds no code block, HTML block or heading); apply from the end.
  edits.sort((a, b) => b.start - a.start);
  let out = markdown;
  for (const edit of edits) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

/** Keys whose string values are data, never Markdown (examples, defaults, enums, code samples). */
const DATA_KEYS = new Set([
  'example',
  'examples',
  'value',
  'default',
  'enum',
  'const',
  'x-codeSamples',
  'externalValue',
]);

/** Every `description` of an OpenAPI document, prepared for Redoc (in place). */
export function prepareDescriptions(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) prepareDescriptions(item);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const record = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(record)) {
    if (key === 'description' && typeof value === 'string') record[key] = prepareMarkdown(value);
    else if (key === 'examples' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      // Example Objects: their description is Markdown, their value is data.
      for (const example of Object.values(value as Record<string, unknown>)) {
        if (
          typeof example === 'object' &&
          example !== null &&
          typeof (example as { description?: unknown }).description === 'string'
        ) {
          (example as { description: string }).description = prepareMarkdown(
            (example as { description: string }).description,
          );
        }
      }
    } else if (!DATA_KEYS.has(key)) prepareDescriptions(value);
  }
}
