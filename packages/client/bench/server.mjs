// The benchmark's HTTP server, run as a child process so that its work and memory are not
// counted against the client. Prints its port on stdout.
import { createServer } from 'node:http';

const TOTAL = Number(process.env.TOTAL ?? 10_000);
const form = JSON.stringify({ id: 1, slug: 'bench', title: 'Bench', visibility: 'public', properties: [] });

function submission(id) {
  return {
    id,
    form_id: 42,
    completion_time: 31,
    data: {
      id,
      status: 'completed',
      created_at: '2025-01-01T00:00:00Z',
      'field-name': `Respondent number ${id}`,
      'field-email': `respondent${id}@example.com`,
      'field-comment': 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(40),
    },
  };
}

const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  let body;
  if (url.pathname === '/open/forms/1') body = form;
  else if (url.pathname === '/open/forms/42/submissions') {
    const perPage = Number(url.searchParams.get('per_page') ?? 100);
    const page = Number(url.searchParams.get('page') ?? 1);
    const lastPage = Math.ceil(TOTAL / perPage);
    const from = (page - 1) * perPage;
    const data = [];
    for (let i = from; i < Math.min(TOTAL, from + perPage); i++) data.push(submission(i + 1));
    body = JSON.stringify({
      data,
      links: { first: '', last: '', prev: null, next: null },
      meta: {
        current_page: page,
        from: from + 1,
        last_page: lastPage,
        links: [],
        path: '',
        per_page: perPage,
        to: from + data.length,
        total: TOTAL,
      },
    });
  } else {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.on('disconnect', () => process.exit(0));
