#!/usr/bin/env node
// `pnpm contract`: parses the command line, runs the targets, prints progress and the summary,
// writes the JSON and JUnit reports, and exits 0 only when nothing unexpected failed.
import { loadSpec } from './spec.js';
import { runContract } from './run-contract.js';
import { parseCommandLine } from './cli-args.js';
import { redact } from './report/curl.js';
import { renderSummary } from './report/text.js';
import { writeReports } from './report/write.js';

async function main(): Promise<number> {
  // pnpm passes a literal "--" through when the user writes `pnpm contract -- --target live`.
  const argv = process.argv.slice(2).filter((a, i) => !(i === 0 && a === '--'));
  const parsed = parseCommandLine(argv, process.env);
  if (!parsed.ok) {
    (parsed.help ? console.log : console.error)(parsed.message);
    return parsed.help ? 0 : 2;
  }
  // Ctrl-C: stop after the current check, let cleanups and process stops run; a second one forces.
  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts === 1) {
      console.error('\ninterrupted: finishing the current check, cleaning up and stopping servers (Ctrl-C again to force)');
      controller.abort();
    } else {
      process.exit(130); // the exit hooks of the started processes kill their groups
    }
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);

  const spec = loadSpec();
  // Filled with every token and webhook secret as the targets start; everything printed is redacted.
  const secrets = new Map<string, string>();
  const log = (line: string) => console.error(line);
  log(`contract suite: targets ${parsed.targets.join(', ')}${parsed.write ? ' (--write)' : ''}${parsed.strict ? ' (--strict)' : ''}`);
  const { report } = await runContract({
    secrets,
    spec,
    targets: parsed.targets,
    write: parsed.write,
    strict: parsed.strict,
    proxyPass: parsed.proxy,
    env: process.env,
    signal: controller.signal,
    log: (line) => log(redact(line, secrets)),
    ...(parsed.config ? { configPath: parsed.config } : {}),
    ...(parsed.operations ? { operations: parsed.operations } : {}),
  });
  console.log(redact(renderSummary(report), secrets));
  if (controller.signal.aborted) console.log('INTERRUPTED: the remaining checks were skipped (exit code 130).');
  const files = await writeReports(report, parsed.reportDir, secrets);
  console.log(`\nreports: ${files.json}\n         ${files.xml}`);
  process.off('SIGINT', onSigint);
  return controller.signal.aborted ? 130 : report.exitCode;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`contract suite crashed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
