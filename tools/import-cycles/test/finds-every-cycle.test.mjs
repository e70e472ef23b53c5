// The check fails on a cycle made of type-only imports (which compile away, yet couple the modules)
// and passes an acyclic folder, run as `pnpm lint` runs it.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const check = fileURLToPath(new URL('../check.mjs', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const run = (dir) => spawnSync(process.execPath, [check, dir], { cwd: fixtures, encoding: 'utf8' });

describe('import-cycles', () => {
  it('fails on a cycle of type-only imports, naming its files', () => {
    const result = run('type-only-cycle');
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/a\.ts > type-only-cycle\/b\.ts|a\.ts > b\.ts/);
  });

  it('passes a folder without cycles', () => {
    const result = run('acyclic');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
