// `reconcile --form N [--since T] [--dry-run]`: one walk of a form's submission list now, through
// the same reconcile queue, rate limiter and claims as the scheduled reconcilers; prints what it
// queued (or, in a dry run, would queue).
import { createFormsClient } from '@forms-api/client';
import { printable } from '@forms-api/internal/printable';
import type { InboxConnection } from '../connection.js';
import { createReconciler } from '../reconciler.js';
import { UsageError } from './io.js';
import { parseInstant } from './replay.js';
import type { Command } from './session.js';

export interface ReconcileFlags {
  form?: string;
  since?: string;
  'dry-run'?: boolean;
  'base-url'?: string;
}

export function reconcileCommand(values: ReconcileFlags, connection: () => InboxConnection): Command {
  const form = Number(values.form);
  if (values.form === undefined || !Number.isSafeInteger(form) || form < 1)
    throw new UsageError(
      `reconcile needs --form, the id of the form to walk (a positive whole number${values.form === undefined ? '' : `, got ${JSON.stringify(values.form)}`}).`,
    );
  const since = values.since === undefined ? undefined : parseInstant('--since', values.since);
  const baseUrl = values['base-url'] ?? process.env.FORMS_API_BASE_URL;
  // The token only from the environment: a flag would show it in the process list and the shell's history.
  const token = process.env.FORMS_API_TOKEN;
  if (!baseUrl || !token)
    throw new UsageError(
      'reconcile reads the form through the API: set FORMS_API_TOKEN (a token that may read its submissions) and FORMS_API_BASE_URL (or pass --base-url).',
    );
  const dryRun = values['dry-run'] ?? false;
  return async (_session, { queue, json, io }) => {
    const reconciler = await createReconciler({
      connection: connection(),
      queue,
      client: createFormsClient({ baseUrl, token }),
      forms: [],
      onError: (error) => io.err(`walk step failed, retried: ${printable(error.message)}`),
    });
    try {
      const report = await reconciler.catchUp(form, { ...(since ? { since } : {}), dryRun });
      if (json) {
        io.out(JSON.stringify(report));
        return 0;
      }
      for (const found of report.recovered) io.out(`${found.key}  created ${found.createdAt}`);
      const count = `${report.recovered.length} submission${report.recovered.length === 1 ? '' : 's'}`;
      io.out(
        `${dryRun ? `would queue ${count}` : `queued ${count}`} of form ${form} that no delivery had brought (${report.examined} looked at, ${report.pages} page${report.pages === 1 ? '' : 's'}); watermark ${report.watermark ?? 'none yet'}${dryRun ? ' (unchanged: dry run)' : ''}`,
      );
      return 0;
    } finally {
      await reconciler.close();
    }
  };
}
