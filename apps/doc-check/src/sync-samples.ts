// `pnpm samples:sync`: copies each sample file (or region) into the document blocks that show it,
// so a sample is edited in one place, where it is compiled and run.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectedText } from './check-samples.js';
import { readDocuments, REPO_ROOT } from './documents.js';
import { codeBlocks, rewriteBlocks } from './markdown.js';

let changed = 0;
let failed = false;
for (const doc of readDocuments()) {
  const blocks = codeBlocks(doc.text);
  const next = rewriteBlocks(doc.text, blocks, (block) => {
    if (!block.sample) return undefined;
    const expected = expectedText(block);
    if (!expected.ok) {
      console.error(`${doc.path}:${block.line}: ${expected.error}`);
      failed = true;
      return undefined;
    }
    return expected.value;
  });
  if (next !== doc.text) {
    writeFileSync(join(REPO_ROOT, doc.path), next);
    console.log(`updated ${doc.path}`);
    changed++;
  }
}
console.log(`${changed} document(s) updated`);
if (failed) process.exit(1);
