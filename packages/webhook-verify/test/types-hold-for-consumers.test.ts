// Consumer projects compile against the built package (dist + package.json, linked into a
// node_modules as an install would) under --strict, with moduleResolution node16, bundler and the
// legacy node (through typesVersions): typed req.webhook for Express and Fastify, reason unions.
// (The README's samples are files of apps/doc-check, compiled and run there.)
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const packageDir = here('..');
const tsc = here('../node_modules/typescript/bin/tsc');
const sources = here('./consumer-types');

const settings = {
  node16: { module: 'node16', moduleResolution: 'node16', type: 'module' },
  bundler: { module: 'esnext', moduleResolution: 'bundler', type: 'module' },
  'node (legacy, through typesVersions)': { module: 'commonjs', moduleResolution: 'node', type: 'commonjs' },
} as const;

function consumerProject(resolution: keyof typeof settings): string {
  const { module, moduleResolution, type } = settings[resolution];
  const dir = mkdtempSync(join(tmpdir(), 'webhook-verify-consumer-'));
  const link = (name: string, target: string) => {
    mkdirSync(join(dir, 'node_modules', name, '..'), { recursive: true });
    symlinkSync(target, join(dir, 'node_modules', name), 'dir');
  };
  link('@forms-api/webhook-verify', packageDir);
  for (const dep of ['express', 'fastify', 'hono', '@types/express', '@types/node'])
    link(dep, join(packageDir, 'node_modules', dep));
  mkdirSync(join(dir, 'src'));
  for (const file of readdirSync(sources)) symlinkSync(join(sources, file), join(dir, 'src', file));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module,
        moduleResolution,
        target: 'es2022',
        lib: ['es2022', 'dom'],
        types: ['node'],
        esModuleInterop: true,
        skipLibCheck: true,
      },
      include: ['src'],
    }),
  );
  return dir;
}

describe.each(Object.keys(settings) as Array<keyof typeof settings>)(
  'a --strict consumer with moduleResolution %s',
  (resolution) => {
    it('compiles against the built package', async () => {
      const dir = consumerProject(resolution);
      const result = await promisify(execFile)(process.execPath, [tsc, '-p', dir, '--pretty', 'false']).then(
        () => '',
        (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ''}${error.stderr ?? ''}`,
      );
      expect(result).toBe('');
    }, 120_000);
  },
);
