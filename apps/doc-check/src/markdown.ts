// Finds the fenced code blocks of a Markdown document and the sample marker that may precede
// each one (`<!-- sample: client/quick-start.ts#list -->`), so blocks can be checked against,
// and rewritten from, the sample files they show.

export interface CodeBlock {
  /** The fence's info string's first word, lower-cased (`ts`, `sh`, `json`, or `` for none). */
  readonly lang: string;
  /** The block's text, without the fences, ending without a newline. */
  readonly code: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The sample the block shows, when a marker precedes it. */
  readonly sample?: SampleRef;
  /** Character offsets of the block's text in the document (for rewriting). */
  readonly start: number;
  readonly end: number;
}

export interface SampleRef {
  /** Path under `samples/`, e.g. `client/quick-start.ts`. */
  readonly file: string;
  /** A `// #region <name>` of the file; the whole file when absent. */
  readonly region?: string;
}

const MARKER = /^<!--\s*sample:\s*([\w./-]+?)(?:#([\w-]+))?\s*-->\s*$/;
const FENCE = /^(`{3,}|~{3,})\s*([\w+-]*)/;

export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  // Offset of the first character of each line.
  const offsets: number[] = [];
  for (let i = 0, at = 0; i < lines.length; i++) {
    offsets.push(at);
    at += lines[i]!.length + 1;
  }
  const blocks: CodeBlock[] = [];
  let pending: SampleRef | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const marker = MARKER.exec(line.trim());
    if (marker) {
      pending = { file: marker[1]!, ...(marker[2] ? { region: marker[2] } : {}) };
      continue;
    }
    const fence = FENCE.exec(line);
    if (!fence) {
      // A marker applies to the block right after it (blank lines allowed), nothing further.
      if (line.trim() !== '') pending = undefined;
      continue;
    }
    const close = fence[1]!;
    const j = lines.findIndex((l, k) => k > i && l.startsWith(close) && l.slice(close.length).trim() === '');
    if (j < 0) throw new Error(`unclosed code fence at line ${i + 1}`);
    const start = offsets[i + 1]!;
    const end = offsets[j]!;
    const code = markdown.slice(start, end).replace(/\n$/, '');
    blocks.push({
      lang: (fence[2] ?? '').toLowerCase(),
      code,
      line: i + 1,
      start,
      end,
      ...(pending ? { sample: pending } : {}),
    });
    pending = undefined;
    i = j;
  }
  return blocks;
}

/** The part of a sample file a block shows: the whole file, or one region without its markers. */
export function sampleText(source: string, region: string | undefined): string {
  const lines = source.replace(/\n$/, '').split('\n');
  const isMarker = (l: string) => /^\s*\/\/\s*#(end)?region\b/.test(l) || /^\s*#\s*#(end)?region\b/.test(l);
  if (region === undefined) return lines.filter((l) => !isMarker(l)).join('\n');
  const begin = lines.findIndex((l) => new RegExp(`^\\s*(//|#)\\s*#region\\s+${region}\\s*$`).test(l));
  if (begin < 0) throw new Error(`no "#region ${region}" in the sample`);
  const out: string[] = [];
  for (let i = begin + 1, depth = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (/^\s*(\/\/|#)\s*#region\b/.test(l)) depth++;
    else if (/^\s*(\/\/|#)\s*#endregion\b/.test(l)) {
      if (depth === 0) return dedent(out).join('\n');
      depth--;
    } else out.push(l);
  }
  throw new Error(`"#region ${region}" has no #endregion`);
}

function dedent(lines: string[]): string[] {
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^ */.exec(l)![0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(cut));
}

/** The document with each marked block's text replaced by `textOf(block)`. */
export function rewriteBlocks(
  markdown: string,
  blocks: readonly CodeBlock[],
  textOf: (block: CodeBlock) => string | undefined,
): string {
  let out = '';
  let at = 0;
  for (const block of blocks) {
    const text = textOf(block);
    if (text === undefined) continue;
    out += markdown.slice(at, block.start) + text + '\n';
    at = block.end;
  }
  return out + markdown.slice(at);
}
