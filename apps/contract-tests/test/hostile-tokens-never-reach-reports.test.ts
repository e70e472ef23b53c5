// A tenant that echoes the token it was sent, in every encoding it likes, must not get any token
// (main or secondary, whole or its secret half, or the forged one the suite makes up) into stdout, stderr, contract-report.json or the
// JUnit XML: those are CI artifacts anyone on the project can read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgainst, startHostileTenant, TOKENS, type CliRun, type HostileTenant } from './hostile-tenant.js';

const percentAll = (text: string, upper: boolean): string =>
  [...new TextEncoder().encode(text)]
    .map((b) => `%${upper ? b.toString(16).toUpperCase().padStart(2, '0') : b.toString(16).padStart(2, '0')}`)
    .join('');

/** Each form a tenant could echo a token in. */
function echoes(token: string): Record<string, string> {
  const half = token.slice(token.indexOf('|') + 1);
  return {
    raw: token,
    'percent-encoded %7C': encodeURIComponent(token),
    'percent-encoded %7c': encodeURIComponent(token).replace('%7C', '%7c'),
    'fully percent-encoded': percentAll(token, true),
    'fully percent-encoded, lower case': percentAll(token, false),
    'JSON \\u007c': token.replace('|', '\\u007c'),
    'JSON \\u007C': token.replace('|', '\\u007C'),
    'secret half': half,
  };
}

describe('a tenant echoing tokens', () => {
  let tenant: HostileTenant;
  let run: CliRun;
  /** Every token the tenant was sent. */
  const sent = new Set<string>();

  beforeAll(async () => {
    tenant = await startHostileTenant((req, res) => {
      const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (token) sent.add(token);
      const forms = token ? Object.values(echoes(token)) : [];
      if (/\/submissions(\?|$)/.test(req.url ?? '')) {
        // Token-shaped keys in a submission's answers: they land in the schema errors' instancePath.
        const data = Object.fromEntries(forms.map((form) => [form, [true]]));
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ data: [{ id: 1, form_id: 2, data }], links: {}, meta: {} }));
      } else {
        // Not JSON: the failure quotes the start of the body.
        res.writeHead(200, { 'content-type': 'text/plain' }).end(`you sent ${forms.join(' ')}`);
      }
    });
    // The explorer too: its findings quote the tenant like every check's.
    run = await runAgainst(tenant, ['--explore-budget', '40', '--seed', '3']);
  }, 120_000);

  afterAll(async () => {
    await tenant?.close();
  });

  it('ran against the tenant and reported its echoes', () => {
    expect(run.code).toBe(1);
    // The echoes reached the reports, as placeholders: otherwise this test would prove nothing.
    expect(run.json).toContain('$FORMS_API_TOKEN_WITHOUT_FORMS_READ');
    expect(run.stdout).toContain('$FORMS_API_TOKEN');
  });

  it("the forged token (the main token's id with another secret) is in no output", () => {
    const main = TOKENS.FORMS_API_TOKEN;
    const forged = [...sent].filter((t) => t.startsWith(main.slice(0, main.indexOf('|') + 1)) && t !== main);
    // The explorer sent it (and the tenant echoed it): otherwise this test would prove nothing.
    expect(forged.length).toBeGreaterThan(0);
    expect(run.json).toContain('$FORMS_API_FORGED_TOKEN');
    for (const token of forged)
      for (const [encoding, echo] of Object.entries(echoes(token)))
        for (const [output, text] of Object.entries({
          stdout: run.stdout,
          stderr: run.stderr,
          'contract-report.json': run.json,
          'contract-report.xml': run.xml,
        }))
          expect(text.includes(echo), `${output} contains ${encoding} of the forged token`).toBe(false);
  });

  for (const [variable, token] of Object.entries(TOKENS)) {
    for (const [encoding, echo] of Object.entries(echoes(token))) {
      it(`${variable} (${encoding}) is in no output`, () => {
        for (const [output, text] of Object.entries({
          stdout: run.stdout,
          stderr: run.stderr,
          'contract-report.json': run.json,
          'contract-report.xml': run.xml,
        })) {
          expect(text.includes(echo), `${output} contains ${encoding} of ${variable}`).toBe(false);
        }
      });
    }
  }
});

/**
 * Issue 20 #4: four encodings got through the suite's own redactor. Each is echoed alone, at the
 * start of every answer (where a failure quotes it), by a tenant run once per encoding; since the
 * suite redacts with the client's redactor, none reaches an output.
 */
const MORE_ECHOES: Record<string, (token: string) => string> = {
  'base64 of "Bearer " + token': (token) => Buffer.from(`Bearer ${token}`).toString('base64'),
  hex: (token) => Buffer.from(token).toString('hex'),
  '\\xHH escapes': (token) => [...Buffer.from(token)].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join(''),
  'split across lines': (token) => `${token.slice(0, 17)}\n${token.slice(17, 30)}\r\n  ${token.slice(30)}`,
};

/**
 * What of an echo must be in no output, as an output would hold it: the echo and its JSON escape
 * (the report files); for a token split across lines, each piece after the first (a line break
 * is shown escaped in every output, so the echo never appears whole as sent).
 */
function traces(token: string, encoding: string, echo: string): string[] {
  if (encoding === 'split across lines') return [token.slice(17, 30), token.slice(30)];
  return [echo, JSON.stringify(echo).slice(1, -1)];
}

describe('a tenant echoing tokens in the encodings the suite once missed', () => {
  const tenants: HostileTenant[] = [];
  const runs: Record<string, CliRun> = {};

  beforeAll(async () => {
    for (const [encoding, encode] of Object.entries(MORE_ECHOES)) {
      const tenant = await startHostileTenant((req, res) => {
        const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
        res
          .writeHead(200, { 'content-type': 'text/plain' })
          .end(token ? `${encode(token)} is what you sent` : 'no token');
      });
      tenants.push(tenant);
      runs[encoding] = await runAgainst(tenant);
    }
  }, 240_000);

  afterAll(async () => {
    await Promise.all(tenants.map((t) => t.close()));
  });

  for (const encoding of Object.keys(MORE_ECHOES)) {
    it(`${encoding}: the echoes reached the reports, as placeholders`, () => {
      const run = runs[encoding]!;
      expect(run.code).toBe(1);
      expect(run.json).toContain('is what you sent');
    });
    for (const [variable, token] of Object.entries(TOKENS)) {
      it(`${variable} (${encoding}) is in no output`, () => {
        const run = runs[encoding]!;
        const echo = MORE_ECHOES[encoding]!(token);
        for (const [output, text] of Object.entries({
          stdout: run.stdout,
          stderr: run.stderr,
          'contract-report.json': run.json,
          'contract-report.xml': run.xml,
        })) {
          for (const trace of traces(token, encoding, echo))
            expect(text.includes(trace), `${output} contains ${encoding} of ${variable}`).toBe(false);
        }
      });
    }
  }
});
