// Serialises a value every way a logger or error reporter might, for the tests that check that
// the token appears in none of it.
import { inspect } from 'node:util';

/** Every own and inherited-getter string reachable from `value`, walked without a depth limit. */
export function everything(value: unknown, seen = new Set<unknown>()): string {
  const parts: string[] = [];
  const work: unknown[] = [value];
  for (let next = work.pop(); work.length > 0 || next !== undefined; next = work.pop()) {
    if (next === null || next === undefined) continue;
    if (typeof next !== 'object' && typeof next !== 'function') {
      parts.push(String(next));
      continue;
    }
    if (seen.has(next)) continue;
    seen.add(next);
    if (next instanceof Error) parts.push(next.name, next.message, next.stack ?? '');
    if (next instanceof Error) work.push(next.cause);
    for (const key of Reflect.ownKeys(next)) {
      parts.push(String(key));
      const d = Object.getOwnPropertyDescriptor(next, key);
      work.push(d?.value ?? (d?.get ? d.get.call(next) : undefined));
    }
    // Getters on the prototype (fieldErrors) too.
    const proto = Object.getPrototypeOf(next);
    if (proto && proto !== Object.prototype && proto !== Error.prototype && proto !== Array.prototype)
      for (const key of Reflect.ownKeys(proto)) {
        const d = Object.getOwnPropertyDescriptor(proto, key);
        if (d?.get) work.push(d.get.call(next));
      }
  }
  return parts.join('\n');
}

/** The dumps a logger could make of an error: a walk, JSON, util.inspect, String. */
export function dumps(err: unknown): string[] {
  return [
    everything(err),
    JSON.stringify(err),
    inspect(err, { depth: Infinity, showHidden: true, getters: true }),
    String(err),
  ];
}
