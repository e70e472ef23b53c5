// The page as a static host should send it: beside dist/index.html (2.9 MB, most of it Redoc's
// inline script) the build writes its brotli and gzip copies once, at their smallest, for hosts
// that serve precompressed files (nginx gzip_static/brotli_static, Caddy `precompressed`) and for
// docs:serve; the bench (bench/first-paint.bench.ts) shows what the bytes cost on a network.
import { readFileSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** The encodings written beside a file, in the server's order of preference, with their suffix. */
export const PRECOMPRESSED = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

/** Writes `file.br` and `file.gz` beside `file`. */
export function writePrecompressed(file: string): void {
  const bytes = readFileSync(file);
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
  );
  writeFileSync(`${file}.gz`, gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION }));
}

/**
 * The encodings an `Accept-Encoding` header accepts (RFC 9110 §12.5.3): names, lower-cased, whose
 * weight is not 0; `*` stands for any encoding the header does not name.
 */
export function acceptedEncodings(header: string | undefined): (encoding: string) => boolean {
  const weights = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((p) => p.startsWith('q='));
    weights.set(name, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  return (encoding) => (weights.get(encoding) ?? weights.get('*') ?? 0) > 0;
}
