// Issue 28: an export resumed from the cursor the previous one returned writes exactly what that
// one did not, although `created_at` has second resolution and the list has no second sort key:
// submissions keep arriving (in the newest second too, during the walk) and each list request
// answers from the list as it is then. Checked over random arrivals, tie orders and page sizes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Submission, SubmissionPage } from '@forms-api/types';
import { exportSubmissions, type ExportClient } from '../src/submissions.js';

const FORM = 7;
const time = (second: number) =>
  new Date(Date.UTC(2026, 10, 28, 10, 0, second)).toISOString().slice(0, 19).replace('T', ' ');

/** A form's list as the service answers it: newest second first, ties in `tieOrder`, by page number. */
function fakeService(tieOrder: 'id' | 'reverse') {
  const rows: Submission[] = [];
  let clock = 0;
  let onList = () => {};
  const client: ExportClient = {
    forms: { get: async () => ({ id: FORM, properties: [{ id: 'f1', name: 'Name', type: 'text' }] }) as never },
    submissions: {
      list: async (_form, query = {}) => {
        onList();
        const sorted = [...rows].sort(
          (a, b) =>
            b.data.created_at.localeCompare(a.data.created_at) || (tieOrder === 'id' ? a.id - b.id : b.id - a.id),
        );
        const perPage = query.perPage ?? 100;
        const page = query.page ?? 1;
        const lastPage = Math.max(1, Math.ceil(sorted.length / perPage));
        return {
          data: sorted.slice((page - 1) * perPage, page * perPage),
          meta: { current_page: page, last_page: lastPage, per_page: perPage, total: sorted.length },
        } as unknown as SubmissionPage;
      },
    },
  };
  return {
    client,
    /** Adds a submission `advance` seconds after the last one (0: the same second). */
    add(advance: number) {
      clock += advance;
      const id = rows.length + 1;
      rows.push({
        id,
        form_id: FORM,
        data: { id, status: 'completed', created_at: time(clock), f1: `n${id}` },
      } as never);
    },
    set onList(f: () => void) {
      onList = f;
    },
  };
}

async function run(client: ExportClient, since: string | undefined, perPage: number) {
  const ids: number[] = [];
  const summary = await exportSubmissions(client, FORM, {
    format: 'ndjson',
    perPage,
    ...(since !== undefined && { since }),
    to: (text) =>
      ids.push(
        ...text
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => (JSON.parse(l) as { id: number }).id),
      ),
  });
  return { ids, cursor: summary.cursor };
}

describe('exportSubmissions resumed from its cursor', () => {
  it('writes, over the exports, every submission exactly once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(2), { minLength: 1, maxLength: 60 }), // seconds between arrivals before each export
        fc.array(fc.array(fc.nat(1), { maxLength: 4 }), { maxLength: 8 }), // arrivals during the walk, per list request
        fc.integer({ min: 1, max: 3 }), // exports
        fc.integer({ min: 1, max: 7 }),
        fc.constantFrom('id' as const, 'reverse' as const),
        async (before, during, exports, perPage, tieOrder) => {
          const service = fakeService(tieOrder);
          let request = 0;
          service.onList = () => (during[request++] ?? []).forEach((advance) => service.add(advance));
          const written: number[] = [];
          let cursor: string | undefined;
          for (let e = 0; e < exports; e++) {
            before
              .slice((e * before.length) / exports, ((e + 1) * before.length) / exports)
              .forEach((a) => service.add(a));
            const result = await run(service.client, cursor, perPage);
            written.push(...result.ids);
            cursor = result.cursor ?? undefined;
          }
          service.onList = () => {};
          written.push(...(await run(service.client, cursor, perPage)).ids);
          const total = (await service.client.submissions.list(FORM, { perPage: 1 })).meta.total;
          expect([...written].sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('from a plain time, writes that second and after', async () => {
    const service = fakeService('id');
    [0, 1, 0, 1].forEach((a) => service.add(a));
    const { ids, cursor } = await run(service.client, time(1).replace(' ', 'T') + 'Z', 2);
    expect(ids.sort()).toEqual([2, 3, 4]);
    expect(cursor).toBe('2026-11-28T10:00:02Z#4');
  });
});
