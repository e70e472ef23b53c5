// A curl repro pasted into bash runs curl and nothing else, with exactly the (redacted) request,
// whatever a respondent or tenant put in the values: the line as the runner builds it and as it
// comes back out of contract-report.json, the JUnit XML and the summary (issue 29, item 1).
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckResult, Exchange } from '../src/model.js';
import { toCurl } from '../src/report/curl.js';
import { buildReport } from '../src/report/model.js';
import { createPlaceholderRedactor } from '../src/report/placeholders.js';
import { printableLines } from '../src/report/printable.js';
import { redactKeepingRepros } from '../src/report/repros.js';
import { renderSummary } from '../src/report/text.js';
import { toJson, toJUnit } from '../src/report/write.js';

const TOKEN = '7|s3cretTokenValue0123456789abcdef';
const TOKEN_IN_SHELL = 'the-token-the-shell-holds';
const redact = createPlaceholderRedactor(new Map([[TOKEN, '$FORMS_API_TOKEN']]));

// A PATH with only a curl that records its arguments, NUL-separated.
const dir = mkdtempSync(join(tmpdir(), 'curl-repro-'));
const argvFile = join(dir, 'argv');
const commandsFile = join(dir, 'commands');
writeFileSync(join(dir, 'curl'), `#!/bin/sh\nfor a in "$@"; do printf '%s\\0' "$a"; done > "$CURL_ARGV"\n`);
chmodSync(join(dir, 'curl'), 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Pastes `line` into bash; returns each command bash ran (a DEBUG trap records them) and curl's arguments. */
function paste(line: string): { commands: string[]; argv: string[] | undefined; stderr: string } {
  rmSync(argvFile, { force: true });
  rmSync(commandsFile, { force: true });
  let stderr = '';
  try {
    execFileSync('/bin/bash', ['--norc', '--noprofile'], {
      input: `trap 'printf "%s\\n" "\${BASH_COMMAND%% *}" >> "$COMMANDS"' DEBUG\n${line}\n`,
      env: { PATH: dir, CURL_ARGV: argvFile, COMMANDS: commandsFile, FORMS_API_TOKEN: TOKEN_IN_SHELL },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
  } catch (error) {
    stderr = String((error as { stderr?: unknown }).stderr ?? error);
  }
  const commands = existsSync(commandsFile) ? readFileSync(commandsFile, 'utf8').split('\n').filter(Boolean) : [];
  const argv = existsSync(argvFile) ? readFileSync(argvFile, 'utf8').split('\0').slice(0, -1) : undefined;
  return { commands, argv, stderr };
}

/** What curl must receive: each value redacted (an argument cannot hold NUL: bash ends a $'…' value there). */
function expectedArgv(exchange: Exchange): string[] {
  const exact = (value: string) => redact(value).split('\0')[0]!;
  const args = ['-sS', '-i'];
  if (exchange.method !== 'GET') args.push('-X', exact(exchange.method));
  for (const [name, value] of Object.entries(exchange.requestHeaders)) {
    if (name.toLowerCase() === 'authorization') args.push('-H', `Authorization: Bearer ${TOKEN_IN_SHELL}`);
    else args.push('-H', exact(`${name}: ${value}`));
  }
  if (exchange.requestBody !== undefined) args.push('--data-raw', exact(exchange.requestBody));
  args.push(exact(exchange.url));
  return args;
}

/** The repro as each output carries it: built, in the JSON report, the JUnit XML and the printed summary. */
function reprosOf(exchange: Exchange): string[] {
  const curl = toCurl(exchange, redact);
  const result: CheckResult = {
    target: 'live',
    operationId: 'updateFormSubmission',
    name: 'file answers sent back as listed',
    outcome: 'failed',
    reason: 'expected 200, received 422',
    failures: [],
    driftIds: [],
    curl: [curl],
    durationMs: 1,
  };
  const report = buildReport({
    startedAt: new Date(),
    strict: false,
    targets: [{ name: 'live', kind: 'live' }],
    results: [result],
    ledger: { entries: [] },
  });
  const fromJson = (JSON.parse(toJson(report, redact)) as { results: CheckResult[] }).results[0]!.curl[0]!;
  const xml = /repro: (.*)<\/failure>/.exec(toJUnit(report, redact))![1]!;
  const fromXml = xml
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&apos;', "'")
    .replaceAll('&amp;', '&');
  const summary = redactKeepingRepros(report, renderSummary, (text) => printableLines(redact(text)));
  const fromSummary = /repro: (.*)/.exec(summary)![1]!;
  return [curl, fromJson, fromXml, fromSummary];
}

function expectOnlyCurl(exchange: Exchange): void {
  const repros = reprosOf(exchange);
  for (const line of repros) expect(line).toBe(repros[0]);
  const pasted = paste(repros[0]!);
  expect(pasted.stderr).toBe('');
  expect(pasted.commands).toEqual(['curl']);
  expect(pasted.argv).toEqual(expectedArgv(exchange));
}

const answerUpdate = (answer: string): Exchange => ({
  method: 'PATCH',
  url: 'https://forms.example/open/forms/1/submissions/2',
  requestHeaders: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
  requestBody: JSON.stringify({ data: { file_field: answer } }),
});

describe('a curl repro pasted into bash', () => {
  it("runs only curl for the respondent's answer that ran a command before (U+0085, then Bearer \\'; cmd #)", () => {
    expectOnlyCurl(answerUpdate("\u0085Bearer \\'; touch pwned #"));
    expectOnlyCurl(answerUpdate("\u0085Bearer '; touch pwned #"));
    expectOnlyCurl(answerUpdate("\u0085Bearer%20\\'; touch pwned #"));
  });

  it('runs only curl, with exactly the redacted request, whatever the values hold', () => {
    const fragment = fc.oneof(
      fc.constantFrom(
        "'",
        '\\',
        '"',
        '$',
        '`',
        '!',
        ';',
        '#',
        '&',
        '|',
        '$(',
        ')',
        '\n',
        '\r',
        '\u0085',
        '\u001b[2J',
        '\u202e',
        '\u2028',
        ' ',
        '\t',
        'Bearer ',
        'Bearer%20',
        'Bearer+',
        TOKEN,
        encodeURIComponent(TOKEN),
        '$FORMS_API_TOKEN',
        '\\x27',
        "'\\''",
        '\u0000',
      ),
      fc.string({ unit: 'binary', maxLength: 6 }),
    );
    const value = fc.array(fragment, { maxLength: 12 }).map((parts) => parts.join(''));
    const exchange: fc.Arbitrary<Exchange> = fc.record({
      method: fc.constantFrom('GET', 'PATCH', 'POST', 'DELETE'),
      url: value.map((v) => `https://forms.example/open/forms/1/submissions?search=${v}`),
      requestHeaders: fc
        .dictionary(fc.constantFrom('x-one', 'x-two', 'content-type'), value, { maxKeys: 2 })
        .map((headers) => ({ authorization: `Bearer ${TOKEN}`, ...headers })),
      requestBody: value,
    });
    fc.assert(fc.property(exchange, expectOnlyCurl), { numRuns: 120 });
  });
});
