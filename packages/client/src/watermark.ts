// Where an export resumes. The list orders by `created_at` to the second with no second key, so a
// time alone cannot say which of that second's submissions were written: a cursor is the newest
// second an export wrote and the ids it wrote in that second.
import { invalidOption } from './errors.js';

export interface Watermark {
  /** `YYYY-MM-DD HH:MM:SS`, UTC, as the list writes `created_at` (so strings compare as times). */
  readonly time: string;
  /** The submissions of that second already written: none for a plain time. */
  readonly ids: ReadonlySet<number>;
}

const IDS = /^\d+(?:,\d+)*$/;
const SERVICE_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-]00:?00)?$/;

/**
 * The service's `created_at` (`YYYY-MM-DD HH:MM:SS`, UTC; a `T`, fractions and a `Z` or zero offset
 * allowed) as milliseconds since the epoch, or NaN for any other text or a time that does not exist
 * (Date.UTC would roll 2026-02-30 over to March: refused, not moved). The one reader of that format.
 */
export function serviceTime(text: unknown): number {
  const parts = typeof text === 'string' ? SERVICE_TIME.exec(text) : null;
  if (!parts) return NaN;
  const [, y, mo, d, h, mi, s] = parts.map(Number) as [number, number, number, number, number, number, number];
  const time = Date.UTC(y, mo - 1, d, h, mi, s);
  const date = new Date(time);
  return date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d || h > 23 || mi > 59 || s > 59 ? NaN : time;
}

/**
 * A `since` option: a time (`YYYY-MM-DD HH:MM:SS` or `YYYY-MM-DDTHH:MM:SSZ`, UTC), or a cursor an
 * export returned (`<time>#<id>,<id>`).
 */
export function parseSince(since: string): Watermark {
  const expected =
    'must be a time in UTC (`2026-11-28 10:00:00` or `2026-11-28T10:00:00Z`) or the `cursor` a previous export returned (`2026-11-28T10:00:00Z#1001,1002`).';
  if (typeof since !== 'string') throw invalidOption('since', expected);
  const [time = '', ids, ...rest] = since.trim().split('#');
  if (!SERVICE_TIME.test(time) || rest.length > 0 || (ids !== undefined && !IDS.test(ids)))
    throw invalidOption('since', expected);
  if (Number.isNaN(serviceTime(time))) throw invalidOption('since', `names a time that does not exist; it ${expected}`);
  return { time: `${time.slice(0, 10)} ${time.slice(11, 19)}`, ids: new Set(ids ? ids.split(',').map(Number) : []) };
}

/** Whether a listed submission is past the watermark: newer, or of its second and not yet written. */
export function isPast(watermark: Watermark | undefined, createdAt: string, id: number): boolean {
  if (!watermark) return true;
  return createdAt > watermark.time || (createdAt === watermark.time && !watermark.ids.has(id));
}

/** The watermark after an export: the newest second it wrote, with the ids it wrote in it. */
export class WatermarkBuilder {
  #time: string | undefined;
  #ids = new Set<number>();
  constructor(from: Watermark | undefined) {
    if (from) [this.#time, this.#ids] = [from.time, new Set(from.ids)];
  }
  add(createdAt: string, id: number): void {
    if (this.#time === undefined || createdAt > this.#time) [this.#time, this.#ids] = [createdAt, new Set([id])];
    else if (createdAt === this.#time) this.#ids.add(id);
  }
  get(): Watermark | undefined {
    return this.#time === undefined ? undefined : { time: this.#time, ids: this.#ids };
  }
}

/** The cursor text of a watermark, for `since`: no spaces, so it can be passed on a command line. */
export function cursorOf(watermark: Watermark): string {
  const time = `${watermark.time.replace(' ', 'T')}Z`;
  return watermark.ids.size === 0 ? time : `${time}#${[...watermark.ids].sort((a, b) => a - b).join(',')}`;
}
