// `replay`: reads the replay flags (status, time range, form, secrets, dry run),
// runs replayDeliveries and prints one line per chosen delivery and a summary (or JSON).
import type { Queue } from 'bullmq';
import { isWebhookVerifyError } from '@forms-api/webhook-verify';
import { replayDeliveries, type ReplayOutcome, type ReplaySelection, type ReplayStatus } from '../replay.js';
import { UsageError, type CliIo } from './io.js';

export interface ReplayFlags {
  since?: string;
  until?: string;
  form?: string;
  status?: string;
  'dry-run'?: boolean;
  secret?: string[];
}

type ReplayRun = (session: { queue: Queue }, options: { json: boolean; io: CliIo }) => Promise<number>;

const AGE = /^(\d+)(s|m|h|d)$/;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** An ISO date-time (`2026-11-24T09:00:00Z`, `2026-11-24`) or an age (`30m`, `6h`, `2d`: that long ago). */
export function parseInstant(flag: string, text: string, now = Date.now()): Date {
  const age = AGE.exec(text);
  if (age) return new Date(now - Number(age[1]) * UNIT_MS[age[2] as keyof typeof UNIT_MS]);
  const ms = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
  if (!Number.isFinite(ms))
    throw new UsageError(
      `${flag} must be an ISO date-time such as 2026-11-24T09:00:00Z, or an age such as 30m, 6h or 2d (got ${JSON.stringify(text)}).`,
    );
  return new Date(ms);
}

export function replayCommand(values: ReplayFlags): ReplayRun {
  const status = values.status ?? '';
  if (status !== 'failed' && status !== 'completed')
    throw new UsageError(
      `replay needs --status failed (the dead letters) or --status completed${status ? ` (got ${JSON.stringify(status)})` : ''}.`,
    );
  const selection: ReplaySelection = { status: status as ReplayStatus };
  if (values.since !== undefined) selection.since = parseInstant('--since', values.since);
  if (values.until !== undefined) selection.until = parseInstant('--until', values.until);
  if (selection.since && selection.until && selection.since >= selection.until)
    throw new UsageError('--since must be earlier than --until.');
  if (values.form !== undefined) {
    const formId = Number(values.form);
    if (!Number.isSafeInteger(formId) || formId < 1)
      throw new UsageError(`--form must be a form id, a positive whole number (got ${JSON.stringify(values.form)}).`);
    selection.formId = formId;
  }
  const secrets = values.secret?.length
    ? values.secret
    : process.env.FORMS_WEBHOOK_SECRET
      ? [process.env.FORMS_WEBHOOK_SECRET]
      : [];
  if (secrets.length === 0)
    throw new UsageError(
      'replay verifies the stored bytes before running them again: pass --secret (twice while rotating) or set FORMS_WEBHOOK_SECRET.',
    );
  const dryRun = values['dry-run'] ?? false;

  return async ({ queue }, { json, io }) => {
    let outcomes: ReplayOutcome[];
    try {
      outcomes = await replayDeliveries(queue, selection, { secret: secrets, dryRun });
    } catch (error) {
      // An empty or padded secret: webhook-verify's usage error, whose message names the fix.
      if (isWebhookVerifyError(error) && error.kind === 'invalid_secret') throw new UsageError(error.message);
      throw error;
    }
    // Taken by a concurrent replay or retry: already queued, which is what was asked.
    const taken = outcomes.filter((o) => o.reason === 'no_longer_finished');
    const unreplayable = outcomes.filter((o) => o.action === 'skipped' && o.reason !== 'no_longer_finished');
    if (json) {
      io.out(JSON.stringify({ dryRun, status: selection.status, deliveries: outcomes }));
    } else {
      const bodiless = outcomes.filter((o) => o.reason === 'body_not_kept');
      for (const o of outcomes) {
        if (o.reason === 'body_not_kept') continue; // one line for them all, below
        const what = `${o.id}  form ${o.formId ?? '?'} submission ${o.submissionId ?? '?'}  received ${o.receivedAt ?? '?'}`;
        if (o.action === 'replay') io.out(`would replay ${what}`);
        else if (o.action === 'replayed') io.out(`replayed ${what}`);
        else if (o.reason === 'no_longer_finished') io.out(`already queued ${what}\n    ${o.detail}`);
        else io.out(`cannot replay ${what}\n    ${o.reason}: ${o.detail}`);
      }
      if (bodiless.length > 0) {
        const shown = bodiless
          .slice(0, 5)
          .map((o) => o.id)
          .join(', ');
        io.out(
          `cannot replay ${bodiless.length} deliver${bodiless.length === 1 ? 'y' : 'ies'} received in the range (${shown}${bodiless.length > 5 ? ', … (--json lists all)' : ''})\n    body_not_kept: ${bodiless[0]!.detail}`,
        );
      }
      const ready = outcomes.filter((o) => o.action !== 'skipped').length;
      const noun = (n: number) => `deliver${n === 1 ? 'y' : 'ies'}`;
      const parts = [
        dryRun
          ? `${ready} ${noun(ready)} would be replayed; nothing was changed (--dry-run)`
          : `${ready} ${noun(ready)} sent back to the queue`,
      ];
      if (taken.length) parts.push(`${taken.length} already queued by another replay or retry`);
      if (unreplayable.length) parts.push(`${unreplayable.length} cannot be replayed (see above)`);
      io.out(outcomes.length === 0 ? `No ${selection.status} deliveries match.` : `${parts.join('; ')}.`);
    }
    if (unreplayable.length > 0) {
      io.err(`${unreplayable.length} of ${outcomes.length} chosen deliveries cannot be replayed.`);
      return 1;
    }
    return 0;
  };
}
