// Issue 29 #11: updateKeeping merged the answers into a plain object, where a field id `__proto__`
// is the prototype setter: the answer was dropped, and the replacing update then deleted it on
// the service. Answers are merged into an object without a prototype: every field id is a key.
import fc from 'fast-check';
import { afterEach, expect, it } from 'vitest';
import { createFormsClient } from '../src/index.js';
import { mergedUpdateBody } from '../src/update-keeping.js';
import { TOKEN } from './support/clock.js';
import { json, startServer, type TestServer } from './support/server.js';

let server: TestServer;
afterEach(() => server?.close());

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];
// The keys of a listed submission's data that are not answers.
const NOT_ANSWERS = ['status', 'created_at', 'id', 'submission_id', 'ip_address'];

const fieldId = fc
  .oneof(fc.constantFrom(...PROTOTYPE_NAMES), fc.string({ minLength: 1, maxLength: 12 }))
  .filter((key) => !NOT_ANSWERS.includes(key) && !key.startsWith('nf-'));

it('keeps every current answer and applies every change, whatever the field ids (property)', () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fieldId, { minLength: 1, maxLength: 8 }).chain((ids) =>
        fc.record({
          ids: fc.constant(ids),
          current: fc
            .subarray(ids)
            .chain((kept) => fc.tuple(...kept.map((key) => fc.tuple(fc.constant(key), fc.string())))),
          changes: fc
            .subarray(ids)
            .chain((changed) =>
              fc.tuple(...changed.map((key) => fc.tuple(fc.constant(key), fc.option(fc.string(), { nil: null })))),
            ),
        }),
      ),
      ({ ids, current, changes }) => {
        const form = { properties: ids.map((id) => ({ id, type: 'text', name: id })) } as never;
        // Object.fromEntries defines own properties, as JSON.parse does for a listed submission.
        const body = mergedUpdateBody(
          form,
          { data: Object.fromEntries(current) as never, completion_time: null },
          Object.fromEntries(changes),
        );
        const expected = new Map<string, unknown>([...current, ...changes]);
        const sent = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
        expect(Object.keys(sent).sort()).toEqual([...expected.keys()].sort());
        for (const [key, value] of expected) expect(Object.getOwnPropertyDescriptor(sent, key)?.value).toEqual(value);
      },
    ),
    { numRuns: 2_000 },
  );
});

it('updateKeeping sends back the answers of fields named __proto__, constructor and prototype', async () => {
  const listed =
    '{"__proto__":"kept 1","constructor":"kept 2","prototype":"kept 3","name":"Jane","created_at":"2025-01-01"}';
  server = await startServer((req, res) => {
    if (req.method === 'PUT') return json(res, 200, { message: 'Submission updated.', data: {} });
    if (req.url.pathname === '/open/forms/42')
      return json(res, 200, {
        id: 42,
        properties: ['__proto__', 'constructor', 'prototype', 'name'].map((id) => ({ id, type: 'text', name: id })),
      });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`{"data":[{"id":7,"completion_time":12,"data":${listed}}],"meta":{"current_page":1,"last_page":1}}`);
  });
  const client = createFormsClient({ baseUrl: server.url, token: TOKEN, retry: false });
  await client.submissions.updateKeeping({ form: 42, submission: 7, changes: { name: 'Jane Doe' } });
  await client.submissions.updateKeeping({ form: 42, submission: 7, changes: JSON.parse('{"__proto__":"changed"}') });
  const [first, second] = server.requests.filter((r) => r.method === 'PUT').map((r) => r.body);
  expect(first).toBe(
    '{"__proto__":"kept 1","constructor":"kept 2","prototype":"kept 3","name":"Jane Doe","completion_time":12}',
  );
  expect(second).toBe(
    '{"__proto__":"changed","constructor":"kept 2","prototype":"kept 3","name":"Jane","completion_time":12}',
  );
});
