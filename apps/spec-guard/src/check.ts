// The guard itself: compares the current bundle with the released one and passes only when
// every breaking change is covered by a major changeset of each package the spec affects.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packagesWithMajor, readChangesets, type ChangesetError } from './changesets.js';
import { breakingChanges } from './spec-rules.js';
import type { BreakingChange, Json } from './types.js';

/** A breaking change of the spec breaks the types generated from it and the client built on them. */
export const AFFECTED_PACKAGES = ['@forms-api/spec', '@forms-api/types', '@forms-api/client'] as const;
/** A breaking change of the webhook payload also breaks the receivers, which export its type. */
export const PAYLOAD_PACKAGES = ['@forms-api/webhook-verify', '@forms-api/webhook-inbox'] as const;

/** The packages a set of breaking changes breaks: the API's always, the receivers' when a webhook changed. */
export function affectedPackages(breaking: readonly BreakingChange[]): string[] {
  const touchesWebhook = breaking.some((c) => c.location.startsWith('webhook '));
  return [...AFFECTED_PACKAGES, ...(touchesWebhook ? PAYLOAD_PACKAGES : [])];
}

export interface CheckInput {
  released: string;
  current: string;
  changesetDir: string;
  packages?: readonly string[];
}

export type CheckOutcome =
  | { ok: true; breaking: BreakingChange[]; covered: boolean; report: string }
  | {
      ok: false;
      kind: 'breaking_without_major' | 'spec_missing' | 'changeset_invalid';
      breaking: BreakingChange[];
      missingMajor: string[];
      report: string;
    };

function readSpec(path: string, what: string): Json | string {
  if (!existsSync(path)) return `${what} ${path} does not exist`;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Json;
  } catch (err) {
    return `${what} ${path} is not JSON: ${(err as Error).message}`;
  }
}

export function formatChange(c: BreakingChange): string {
  return `  - [${c.rule}] ${c.location}: ${c.before} → ${c.after}`;
}

export function check(input: CheckInput): CheckOutcome {
  const released = readSpec(input.released, 'the released spec');
  const current = readSpec(input.current, 'the current bundle');
  for (const spec of [released, current]) {
    if (typeof spec === 'string') {
      return {
        ok: false,
        kind: 'spec_missing',
        breaking: [],
        missingMajor: [],
        report: `spec-guard: ${spec} (run \`pnpm bundle\`; the release script writes spec/released/openapi.json)`,
      };
    }
  }
  const breaking = breakingChanges(released as Json, current as Json);
  if (breaking.length === 0) {
    return { ok: true, breaking, covered: false, report: 'spec-guard: no breaking change against the released spec' };
  }
  const { changesets, errors } = readChangesets(input.changesetDir);
  const list = breaking.map(formatChange).join('\n');
  if (errors.length > 0) {
    const why = errors.map((e: ChangesetError) => `  - ${e.file}: ${e.message}`).join('\n');
    return {
      ok: false,
      kind: 'changeset_invalid',
      breaking,
      missingMajor: [],
      report: `spec-guard: ${breaking.length} breaking change(s), and changesets that cannot be read:\n${why}\n\nBreaking changes:\n${list}`,
    };
  }
  const majors = packagesWithMajor(changesets);
  const packages = affectedPackages(breaking).filter((p) => !input.packages || input.packages.includes(p));
  const missingMajor = packages.filter((p) => !majors.has(p));
  if (missingMajor.length === 0) {
    return {
      ok: true,
      breaking,
      covered: true,
      report: `spec-guard: ${breaking.length} breaking change(s), covered by major changesets of ${packages.join(', ')}:\n${list}`,
    };
  }
  const frontmatter = missingMajor.map((p) => `"${p}": major`).join('\n');
  return {
    ok: false,
    kind: 'breaking_without_major',
    breaking,
    missingMajor,
    report:
      `spec-guard: ${breaking.length} breaking change(s) against the released spec:\n${list}\n\n` +
      `Each needs a major changeset of ${missingMajor.join(', ')} (none in ${input.changesetDir}). ` +
      `Run \`pnpm changeset\` and pick major, or add a .changeset/*.md with:\n---\n${frontmatter}\n---\n` +
      `If the change is not meant to break clients, make it compatible instead (see apps/spec-guard/README.md).`,
  };
}

/** The packages the guard may ask a major of that exist in the workspace at `root`. */
export function workspacePackages(root: string): string[] {
  const dirs = ['spec', 'packages/types', 'packages/client', 'packages/webhook-verify', 'packages/webhook-inbox'];
  const names = dirs
    .map((d) => join(root, d, 'package.json'))
    .filter((f) => existsSync(f))
    .map((f) => (JSON.parse(readFileSync(f, 'utf8')) as { name?: string }).name);
  return [...AFFECTED_PACKAGES, ...PAYLOAD_PACKAGES].filter((p) => names.includes(p));
}
