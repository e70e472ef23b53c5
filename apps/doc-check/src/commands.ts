// The shell commands the documents print: every row of the root README's task table whose first
// cell is a command, and every `sh` block of every README and guide (a block is run as one
// script, as a reader would paste it).
import { codeBlocks } from './markdown.js';
import { readDocuments, type Document } from './documents.js';

export interface DocumentedCommand {
  /** Where it is printed, `README.md:55`. */
  readonly where: string;
  readonly document: string;
  /** The command or script, exactly as printed. */
  readonly text: string;
}

const SHELL_LANGS = new Set(['sh', 'bash', 'shell', 'console']);
// A task-table row: | `pnpm lint` | … |
const TABLE_ROW = /^\|\s*`((?:pnpm|npx|npm|node)\s[^`]*)`\s*\|/;

export function documentedCommands(documents: readonly Document[] = readDocuments()): DocumentedCommand[] {
  const commands: DocumentedCommand[] = [];
  for (const doc of documents) {
    if (doc.path === 'README.md') {
      doc.text.split('\n').forEach((line, i) => {
        const row = TABLE_ROW.exec(line);
        if (row) commands.push({ where: `${doc.path}:${i + 1}`, document: doc.path, text: row[1]!.trim() });
      });
    }
    for (const block of codeBlocks(doc.text)) {
      if (SHELL_LANGS.has(block.lang))
        commands.push({ where: `${doc.path}:${block.line}`, document: doc.path, text: block.code });
    }
  }
  return commands;
}
