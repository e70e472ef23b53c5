// Report rendering: curl repros never show a token, JUnit XML is well formed, the summary counts.
import { describe, expect, it } from 'vitest';
import { toCurl } from '../src/report/curl.js';
import { createPlaceholderRedactor } from '../src/report/placeholders.js';
import { renderJUnit } from '../src/report/junit.js';
import { renderSummary } from '../src/report/text.js';
import { buildReport } from '../src/report/model.js';
import { toJson } from '../src/report/write.js';
import { loadSpec } from '../src/spec.js';
import type { CheckResult, Exchange } from '../src/model.js';

const TOKEN = '12|s3cretTokenValue0123456789abcdef';
const OTHER = '13|anotherSecretToken';
const redact = createPlaceholderRedactor(
  new Map([
    [TOKEN, '$FORMS_API_TOKEN'],
    [OTHER, '$FORMS_API_TOKEN_WITHOUT_FORMS_READ'],
  ]),
);
const exchange: Exchange = {
  method: 'PUT',
  url: 'https://forms.example/open/forms/1/submissions/2',
  requestHeaders: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
  requestBody: `{"note":"it's ${TOKEN}"}`,
  status: 500,
};

function result(outcome: CheckResult['outcome'], extra: Partial<CheckResult> = {}): CheckResult {
  return {
    target: 'live',
    operationId: 'updateFormSubmission',
    name: `case <${outcome}> & "quotes"`,
    outcome,
    failures: [],
    driftIds: [],
    curl: [],
    durationMs: 5,
    ...extra,
  };
}

describe('curl repro', () => {
  it('redacts the token in the header and anywhere else', () => {
    const curl = toCurl(exchange, redact);
    expect(curl).not.toContain(TOKEN);
    expect(curl).toContain('"Authorization: Bearer $FORMS_API_TOKEN"');
    expect(curl).toContain('-X PUT');
    expect(curl).toContain(`$'{"note":"it\\x27s $FORMS_API_TOKEN"}'`);
  });

  it('names the variable of a secondary token', () => {
    const curl = toCurl({ ...exchange, requestHeaders: { authorization: `Bearer ${OTHER}` } }, redact);
    expect(curl).toContain('Bearer $FORMS_API_TOKEN_WITHOUT_FORMS_READ');
    expect(curl).not.toContain(OTHER);
  });

  it("quotes control characters with $'…': the repro stays exact and prints nothing a terminal obeys", () => {
    const curl = toCurl({ ...exchange, requestBody: "a\u001b[2Jb\nit's" }, redact);
    expect(curl).toContain("--data-raw $'a\\x1b[2Jb\\x0ait\\x27s'");
    expect(curl).not.toMatch(/[\u0000-\u001f]/);
  });

  it('hides a bearer token it was not told about', () => {
    expect(createPlaceholderRedactor(new Map())('Authorization: Bearer unknownTok123')).toBe(
      'Authorization: Bearer $FORMS_API_TOKEN',
    );
  });
});

describe('reports', () => {
  const spec = loadSpec();
  const results = [
    result('passed'),
    result('failed', { reason: `expected 200, received 500 ${TOKEN}`, curl: [toCurl(exchange, redact)] }),
    result('known-drift', {
      reason: 'known drift: update-submission-response-shape',
      driftIds: ['update-submission-response-shape'],
    }),
    result('skipped', { reason: 'no token (set FORMS_API_TOKEN_WITHOUT_FORMS_WRITE)' }),
    result('info', { reason: 'additive \u0001 control char' }),
  ];
  const report = buildReport({
    startedAt: new Date(),
    strict: false,
    targets: [{ name: 'live', kind: 'live' }],
    results,
    ledger: spec.ledger,
  });

  it('builds totals, the ledger seen/not seen and the exit code', () => {
    expect(report.totals).toEqual({ passed: 1, failed: 1, 'known-drift': 1, skipped: 1, info: 1 });
    expect(report.ledgerSeen.map((e) => e.id)).toEqual(['update-submission-response-shape']);
    // Not seen: the entries of the operation that ran on the tenant (those that name it), less the one it showed.
    expect(report.ledgerNotSeen.map((e) => e.id)).toEqual(
      spec.ledger.entries
        .filter((e) => e.operationId === 'updateFormSubmission')
        .map((e) => e.id)
        .filter((id) => id !== 'update-submission-response-shape'),
    );
    expect(report.exitCode).toBe(1);
    const driftOnly = buildReport({
      startedAt: new Date(),
      strict: false,
      targets: [{ name: 'live', kind: 'live' }],
      results: [results[2]!],
      ledger: spec.ledger,
    });
    expect(driftOnly.exitCode).toBe(0);
    expect(
      buildReport({
        startedAt: new Date(),
        strict: true,
        targets: [{ name: 'live', kind: 'live' }],
        results: [results[2]!],
        ledger: spec.ledger,
      }).exitCode,
    ).toBe(1);
  });

  it("holds each sandbox to its drift expectation; --strict fails on a tenant's drift, not on the observed sandbox's", () => {
    const every = spec.ledger.entries.map((e) => e.id);
    // One result per entry, on the operation its first match names (every operation ran).
    const observed = (ids: string[]): CheckResult[] =>
      spec.ledger.entries.map((e) =>
        result(ids.includes(e.id) ? 'known-drift' : 'passed', {
          target: 'sandbox (observed)',
          operationId: e.match[0]!.operationId,
          driftIds: ids.includes(e.id) ? [e.id] : [],
        }),
      );
    const targets = [{ name: 'sandbox (observed)', kind: 'live' as const, expectsDrift: 'every-entry' as const }];
    const all = buildReport({
      startedAt: new Date(),
      strict: false,
      targets,
      results: observed(every),
      ledger: spec.ledger,
    });
    expect([all.exitCode, all.expectationFailures]).toEqual([0, []]);
    expect(
      buildReport({ startedAt: new Date(), strict: true, targets, results: observed(every), ledger: spec.ledger })
        .exitCode,
    ).toBe(0);
    const missing = buildReport({
      startedAt: new Date(),
      strict: false,
      targets,
      results: observed(every.slice(1)),
      ledger: spec.ledger,
    });
    expect(missing.exitCode).toBe(1);
    expect(missing.expectationFailures.join('\n')).toContain(every[0]!);
    const contract = buildReport({
      startedAt: new Date(),
      strict: false,
      targets: [{ name: 'sandbox', kind: 'live', expectsDrift: 'none' }],
      results: [result('known-drift', { target: 'sandbox', driftIds: [every[0]!] })],
      ledger: spec.ledger,
    });
    expect(contract.exitCode).toBe(1);
    expect(contract.expectationFailures[0]).toContain('follows the contract, yet showed known drift');
  });

  it('renders well-formed JUnit XML', async () => {
    const xml = renderJUnit(report);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(xml).toContain('<failure');
    expect(xml).toContain('<skipped');
    expect(xml).not.toContain('\u0001');
    expect(xml).toContain('&lt;failed&gt; &amp; &quot;quotes&quot;');
    // Well-formedness: balanced elements and no raw markup characters inside attributes or text.
    const stack: string[] = [];
    for (const m of xml.matchAll(/<(\/?)([A-Za-z][\w-]*)([^>]*?)(\/?)>/g)) {
      const [, closing, name, attrs, selfClosing] = m;
      expect(attrs).not.toMatch(/[<&](?!amp;|lt;|gt;|quot;|apos;)/);
      if (selfClosing) continue;
      if (closing) expect(stack.pop()).toBe(name);
      else stack.push(name!);
    }
    expect(stack).toEqual([]);
    expect(xml.replace(/<[^>]*>/g, '')).not.toMatch(/[<>]|&(?!amp;|lt;|gt;|quot;|apos;)/);
  });

  it('prints a summary with counts, the failure with its repro, and no token in the JSON', () => {
    const text = redact(renderSummary(report));
    expect(text).toContain('target live: 1 passed, 1 failed, 1 known drift, 1 skipped, 1 info');
    expect(text).toContain('repro: curl');
    expect(text).not.toContain(TOKEN);
    expect(text).toContain('not seen');
    expect(toJson(report, redact)).not.toContain(TOKEN);
  });
});

describe('the bearer rule', () => {
  it('keeps the JSON report JSON when a message quotes "Bearer " (it never eats the backslash of \\")', () => {
    const report = buildReport({
      startedAt: new Date(),
      strict: false,
      targets: [{ name: 'live', kind: 'live', error: 'set the token alone, without "Bearer ")' }],
      results: [result('failed', { reason: 'sent "Bearer " and Bearer 1\\u007cabc' })],
      ledger: { entries: [] },
    });
    const json = JSON.parse(toJson(report, redact)) as { targets: Array<{ error: string }>; results: CheckResult[] };
    expect(json.targets[0]!.error).toBe('set the token alone, without "Bearer ")');
    expect(json.results[0]!.reason).toBe('sent "Bearer " and Bearer $FORMS_API_TOKEN');
  });
});
