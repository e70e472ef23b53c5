// Test support: a form's completed submissions served over HTTP on 127.0.0.1 as the service lists
// them (newest first, page numbers, `meta.total`), with a hook run before each list page is
// answered (submissions arriving or deleted mid-walk), and a reconciler made against it.
import { createServer, type Server } from 'node:http';
import { createFormsClient } from '@forms-api/client';
import { listen } from '@forms-api/test-support';
import { createReconciler, type Reconciler, type ReconcilerOptions } from '../../src/index.js';

export const NAME_FIELD = 'f1a2b3c4-0000-4000-8000-000000000001';

export interface Listed {
  id: number;
  createdAt: number;
}

export interface ListedForm {
  readonly form: number;
  readonly url: string;
  /** Newest first. */
  readonly submissions: Listed[];
  /** Every list request, in order. */
  readonly requests: Array<{ form: number; page: number; at: number }>;
  add(id: number, ageMs: number): void;
  remove(ids: readonly number[]): void;
  /** Run before each list page of this form is answered. */
  onListRequest: ((page: number) => void | Promise<void>) | undefined;
  /** A reconciler against this form; closed by `close()`. */
  reconciler(options: Omit<ReconcilerOptions, 'client'>): Promise<Reconciler>;
  close(): Promise<void>;
}

const serviceTime = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

export async function serveListedForm(form: number): Promise<ListedForm> {
  const submissions: Listed[] = [];
  const requests: ListedForm['requests'] = [];
  const reconcilers: Reconciler[] = [];
  const item = ({ id, createdAt }: Listed) => ({
    data: { [NAME_FIELD]: `Ada ${id}`, status: 'completed' as const, created_at: serviceTime(createdAt), id },
    form_id: form,
    id,
  });
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      res.setHeader('content-type', 'application/json');
      const formId = Number(/^\/open\/forms\/(\d+)/.exec(url.pathname)?.[1]);
      if (url.pathname === `/open/forms/${formId}`)
        return void res.end(
          JSON.stringify({ id: formId, properties: [{ id: NAME_FIELD, name: 'Name', type: 'text' }] }),
        );
      if (url.pathname !== `/open/forms/${formId}/submissions`) return void res.writeHead(404).end('{}');
      const page = Number(url.searchParams.get('page') ?? 1);
      const perPage = Number(url.searchParams.get('per_page') ?? 100);
      requests.push({ form: formId, page, at: Date.now() });
      if (formId === form) await listed.onListRequest?.(page);
      const list = formId === form ? submissions : [];
      res.end(
        JSON.stringify({
          data: list.slice((page - 1) * perPage, page * perPage).map(item),
          links: { first: null, last: null, prev: null, next: null },
          meta: {
            current_page: page,
            from: null,
            last_page: Math.max(1, Math.ceil(list.length / perPage)),
            links: [],
            path: '',
            per_page: perPage,
            to: null,
            total: list.length,
          },
        }),
      );
    })().catch(() => res.writeHead(500).end('{}'));
  });
  const { url } = await listen(server);
  const listed: ListedForm = {
    form,
    url,
    submissions,
    requests,
    add(id, ageMs) {
      submissions.push({ id, createdAt: Date.now() - ageMs });
      submissions.sort((a, b) => b.createdAt - a.createdAt);
    },
    remove(ids) {
      for (const id of ids) submissions.splice(submissions.findIndex((s) => s.id === id) >>> 0, 1);
    },
    onListRequest: undefined,
    async reconciler(options) {
      const created = await createReconciler({
        client: createFormsClient({ baseUrl: url, token: 'test-token-0123456789' }),
        onError: () => {},
        ...options,
      });
      reconcilers.push(created);
      return created;
    },
    async close() {
      await Promise.all(reconcilers.map((r) => r.close()));
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return listed;
}
