// A new user's trial found the README's fault list four behind `forms-sandbox --help`: the list is
// checked against the catalogue, so a fault added without its line fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SANDBOX_FAULTS } from '../src/behaviour/faults.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const section = readme.slice(
  readme.indexOf('## Fault switches'),
  readme.indexOf('\n## ', readme.indexOf('## Fault switches') + 1),
);

describe('the README section "Fault switches"', () => {
  it('names every fault of the catalogue', () => {
    expect(SANDBOX_FAULTS.filter((fault) => !section.includes(`\`${fault}\``))).toEqual([]);
  });
});
