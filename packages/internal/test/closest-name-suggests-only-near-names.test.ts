import { describe, expect, it } from 'vitest';
import { closestName } from '../src/closest-name.js';

describe('closestName', () => {
  const options = ['behaviour', 'concurrency', 'port', 'allowed-host'];
  it.each([
    ['behavior', 'behaviour'],
    ['concurency', 'concurrency'],
    ['Port', 'port'],
    ['allowed-hosts', 'allowed-host'],
  ])('%s is taken for %s', (typo, meant) => {
    expect(closestName(typo, options)).toBe(meant);
  });
  it.each(['seed', 'verbose', 'x', ''])('%j is near none of them', (name) => {
    expect(closestName(name, options)).toBeUndefined();
  });
  it('knows nothing when nothing is known', () => {
    expect(closestName('port', [])).toBeUndefined();
  });
});
