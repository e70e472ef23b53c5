// Runs test/vectors.json against one build of the package and returns one line per vector, so
// every build and runtime can be compared line for line. Plain JS: it also runs outside vitest.
import { readFileSync } from 'node:fs';

export const vectors = JSON.parse(readFileSync(new URL('./vectors.json', import.meta.url), 'utf8'));

const bodyOf = (body) =>
  body.hex !== undefined ? Uint8Array.from(body.hex.match(/../g) ?? [], (h) => Number.parseInt(h, 16)) : body.utf8;

/** @param {{ sign: Function, verify: Function, verifyOrThrow: Function }} api */
export async function runVectors(api) {
  const lines = [];
  for (const v of vectors.valid) {
    const body = bodyOf(v.body);
    const signed = await api.sign(v.secret, body);
    const verified = await api.verify(v.secret, body, v.signature);
    const rotated = await api.verify(['a-different-secret-1', v.secret], body, v.signature);
    lines.push(
      `valid ${v.name}: sign ${signed === v.signature ? 'ok' : `MISMATCH ${signed}`}, verify ${verified}, rotation ${rotated}`,
    );
  }
  for (const v of vectors.invalid) {
    const body = bodyOf(v.body);
    const verified = await api.verify(v.secret, body, v.header ?? undefined);
    let reason = 'none';
    try {
      await api.verifyOrThrow(v.secret, body, v.header ?? undefined);
    } catch (error) {
      reason = error.kind ?? `unexpected ${error.name}`;
    }
    lines.push(
      `invalid ${v.name}: verify ${verified}, reason ${reason}${reason === v.reason ? '' : ` (EXPECTED ${v.reason})`}`,
    );
  }
  return lines;
}

/** The lines every build must produce. */
export function expectedLines() {
  return [
    ...vectors.valid.map((v) => `valid ${v.name}: sign ok, verify true, rotation true`),
    ...vectors.invalid.map((v) => `invalid ${v.name}: verify false, reason ${v.reason}`),
  ];
}
