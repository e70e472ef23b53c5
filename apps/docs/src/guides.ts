// Reads the Markdown guides of guides/*.md: the file name gives the order and the slug
// (`01-quick-start.md` → `quick-start`), the first `# ` heading gives the title.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fail, type DocsResult } from './errors.ts';

export interface Guide {
  slug: string;
  title: string;
  /** The Markdown body without its title heading. */
  body: string;
}

const FILE_NAME = /^(\d+)-([a-z0-9]+(?:-[a-z0-9]+)*)\.md$/;

export function parseGuide(fileName: string, markdown: string): DocsResult<Guide> {
  const name = FILE_NAME.exec(fileName);
  if (!name) {
    return fail('guide_invalid', `${fileName}: guide files are named NN-slug.md (for example 01-quick-start.md)`, {
      context: { file: fileName },
    });
  }
  const lines = markdown.replace(/\r\n/g, '\n').split('\n');
  const titleIndex = lines.findIndex((line) => line.trim() !== '');
  const titleLine = lines[titleIndex] ?? '';
  if (!titleLine.startsWith('# ')) {
    return fail('guide_invalid', `${fileName}: a guide starts with its title as a "# " heading`, {
      context: { file: fileName },
    });
  }
  const body = lines
    .slice(titleIndex + 1)
    .join('\n')
    .trim();
  if (body === '')
    return fail('guide_invalid', `${fileName}: the guide has a title but no text`, { context: { file: fileName } });
  return { ok: true, value: { slug: name[2]!, title: titleLine.slice(2).trim(), body } };
}

export function readGuides(dir: string): DocsResult<Guide[]> {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort();
  const guides: Guide[] = [];
  for (const file of files) {
    const guide = parseGuide(file, readFileSync(join(dir, file), 'utf8'));
    if (!guide.ok) return guide;
    guides.push(guide.value);
  }
  if (guides.length === 0) return fail('guide_invalid', `no guides found in ${dir}`, { context: { dir } });
  return { ok: true, value: guides };
}
