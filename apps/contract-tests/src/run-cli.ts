// The `contract` command as a function of its arguments, environment and output streams: runs the
// targets, prints progress (stderr) and the summary (stdout), and always writes the JSON and JUnit
// reports, also when the run itself fails. Everything it prints or writes is redacted.
import { parseCommandLine } from './cli-args.js';
import { buildReport } from './report/model.js';
import { printableLines } from './report/printable.js';
import { createPlaceholderRedactor } from './report/placeholders.js';
import { redactKeepingRepros } from './report/repros.js';
import { renderSummary } from './report/text.js';
import { writeReports } from './report/write.js';
import { runContract, type ContractRun } from './run-contract.js';
import { loadSpec } from './spec.js';
import { isContractTestsError } from './errors.js';
import { join } from 'node:path';
import { readAllowedDrift, readPreviousSightings, type AllowedDrift } from './allow-drift.js';
import { loadLiveConfig, type LiveSettings } from './targets/live.js';
import type { Clock } from '@forms-api/client';
import type { DriftLedger } from '@forms-api/spec/drift';

export interface CliIo {
  readonly argv: string[];
  readonly env: NodeJS.ProcessEnv;
  /** One line of the summary (stdout). */
  readonly out: (line: string) => void;
  /** One line of progress (stderr). */
  readonly err: (line: string) => void;
  /** Aborted on Ctrl-C: the current check finishes, cleanups run, the rest is skipped. */
  readonly signal: AbortSignal;
  /** Time of the live target's pacer (default: the real one); a test scales a minute down to seconds. */
  readonly clock?: Clock;
}

/**
 * Runs the command; resolves with the exit code (0 ok, 1 failures, 2 bad command line or live
 * settings, 3 live settings the tenant refused (preflight), 130 interrupted).
 */
export async function runCli(io: CliIo): Promise<number> {
  const parsed = parseCommandLine(io.argv, io.env);
  if (!parsed.ok) {
    io.err(parsed.error.message);
    return 2;
  }
  if ('help' in parsed.value) {
    io.out(parsed.value.help);
    return 0;
  }
  const options = parsed.value;
  // The tenant's settings are checked before any target starts: a CI job missing one learns it at
  // once, not after the local targets have run (the message names variables, never values).
  let live: LiveSettings | undefined;
  if (options.targets.includes('live')) {
    const config = loadLiveConfig({
      env: io.env,
      write: options.write,
      ownForm: options.ownForm,
      ...(options.config ? { configPath: options.config } : {}),
    });
    if (!config.ok) {
      io.err(`target live: ${config.error.message}`);
      return 2;
    }
    live = config.value;
  }
  const startedAt = new Date();
  // Filled with every token as the targets start; everything printed or written is redacted with it.
  const secrets = new Map<string, string>();
  let redact = createPlaceholderRedactor(secrets);
  let known = 0;
  const redacted = (text: string): string => {
    if (secrets.size !== known) {
      known = secrets.size;
      redact = createPlaceholderRedactor(secrets);
    }
    // Lines of the suite's own; control characters anywhere in them are shown escaped.
    return printableLines(redact(text));
  };
  const log = (line: string) => io.err(redacted(line));
  if (options.notice) log(`note: ${options.notice}`);
  if (options.explore.budget > 0)
    log(
      `explore: seed ${options.explore.seed} (replay with --seed ${options.explore.seed}), at most ${options.explore.budget} requests and ${options.explore.timeLimitMs / 1000} s per target`,
    );
  log(
    `contract suite: targets ${options.targets.join(', ')}${options.write ? ' (--write)' : ''}${options.ownForm ? ' (--own-form)' : ''}${options.destructive ? ' (--destructive)' : ''}${options.strict ? ' (--strict)' : ''}`,
  );

  let run: ContractRun;
  let settingsRefused: 2 | 3 | undefined;
  // No entries to report on when the spec itself could not be loaded.
  let ledger: Pick<DriftLedger, 'entries'> = { entries: [] };
  // Also in the report of a run the settings stopped: the next run reads its sightings.
  let allowedDrift: AllowedDrift | undefined;
  try {
    const spec = loadSpec();
    ledger = spec.ledger;
    if (options.allowDrift) {
      const read = readAllowedDrift(
        options.allowDrift,
        spec.ledger.entries.map((e) => e.id),
        startedAt.toISOString().slice(0, 10),
      );
      if (!read.ok) {
        io.err(read.error.message);
        return 2;
      }
      allowedDrift = read.value;
      if (options.notSeenDays !== undefined) {
        // The previous run's report, before this run writes over it.
        const previous = readPreviousSightings(join(options.reportDir, 'contract-report.json'));
        if (!previous.ok) {
          io.err(previous.error.message);
          return 2;
        }
        allowedDrift = { ...allowedDrift, tracking: { days: options.notSeenDays, previous: previous.value } };
      }
    }
    run = await runContract({
      secrets,
      spec,
      targets: options.targets,
      write: options.write,
      ownForm: options.ownForm,
      destructive: options.destructive,
      strict: options.strict,
      ...(allowedDrift ? { allowedDrift } : {}),
      proxyPass: options.proxy,
      preflight: options.preflight,
      rateLimit: options.rateLimit,
      explore: options.explore,
      signal: io.signal,
      log,
      ...(io.clock ? { clock: io.clock } : {}),
      ...(live ? { live } : {}),
      ...(options.operations ? { operations: options.operations } : {}),
    });
  } catch (error) {
    if (isContractTestsError(error) && (error.kind === 'preflight_failed' || error.kind === 'port_in_use')) {
      // The settings, not the service: one message, a report naming it; exit 3 when the tenant
      // refused them, 2 when they cannot work here (the receiver's port is taken).
      log(`== target live: ${error.message}`);
      const report = buildReport({
        startedAt,
        strict: options.strict,
        targets: [{ name: 'live', kind: 'live', error: error.message }],
        results: [],
        ledger,
        ...(allowedDrift
          ? { allowedDrift: { ...allowedDrift, ids: [...allowedDrift.ids], expired: [...allowedDrift.expired] } }
          : {}),
      });
      run = { report, secrets };
      settingsRefused = error.kind === 'preflight_failed' ? 3 : 2;
    } else {
      // A bug of the suite, not of a target: still leave a report saying so.
      const message = `the contract suite crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
      log(message);
      const report = buildReport({
        startedAt,
        strict: options.strict,
        targets: [{ name: 'suite', kind: 'mock', error: message }],
        results: [],
        ledger,
        ...(allowedDrift
          ? { allowedDrift: { ...allowedDrift, ids: [...allowedDrift.ids], expired: [...allowedDrift.expired] } }
          : {}),
      });
      run = { report, secrets };
    }
  }
  // The reports first: whatever happens to the terminal afterwards, the CI artifacts exist.
  let written: { json: string; xml: string; drift: string; coverage: string } | { error: string };
  try {
    written = await writeReports(run.report, options.reportDir, createPlaceholderRedactor(run.secrets), ledger);
  } catch (error) {
    written = {
      error: `could not write the reports to ${options.reportDir}: ${error instanceof Error ? error.message : String(error)} (choose a writable --report-dir)`,
    };
  }
  // Repros are redacted value by value and quoted; a pass over the quoted line could unquote it.
  for (const line of redactKeepingRepros(run.report, renderSummary, redacted).split('\n')) io.out(line);
  if (io.signal.aborted) io.out('INTERRUPTED: the remaining checks were skipped (exit code 130).');
  if ('error' in written) {
    io.err(redacted(written.error));
    return io.signal.aborted ? 130 : 1;
  }
  io.out('');
  io.out(`reports: ${written.json}`);
  io.out(`         ${written.xml}`);
  io.out(`         ${written.drift}`);
  io.out(`         ${written.coverage}`);
  return io.signal.aborted ? 130 : (settingsRefused ?? run.report.exitCode);
}
