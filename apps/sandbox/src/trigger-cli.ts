// `forms-sandbox trigger`: one real, signed submission.created delivery to a receiver of yours.
// Through the typed client it creates a webhook integration pointing at the receiver, answers the
// form, waits for the delivery's event and prints what was sent and what the receiver answered;
// on its own sandbox (the default), a running one, or a tenant of the service.
import { randomBytes } from 'node:crypto';
import { createFormsClient, isFormsApiError } from '@forms-api/client';
import type { Form, WebhookEvent } from '@forms-api/types';
import { UsageError, parseOptions } from './cli-args.js';
import { startSandbox } from './index.js';

const HELP = `Usage: forms-sandbox trigger --to <url> [options]

Fires one signed submission.created webhook at your receiver, as the service would: creates a
webhook integration of a form pointing at --to, answers the form, waits for the delivery to be
recorded, prints what was sent and what your receiver answered, then deletes the integration
(--keep leaves it). Exit 0 when the receiver answered 2xx, 1 otherwise.

Without --base-url it starts a sandbox of its own for the one delivery (receivers on your machine
allowed) and stops it after. With --base-url and a token it works on a running sandbox (start it
with --allow-private-webhooks for a receiver on your machine) or on a tenant of the service (which
delivers only to public https URLs).

  --to <url>           your receiver, e.g. http://127.0.0.1:3000/webhooks
  --form <id|slug>     the form to answer (default 11 on its own sandbox; required with --base-url)
  --secret <secret>    the signing secret (default: a new one, printed so your receiver can verify)
  --answers <json>     the answers, by field id (default: a sample value for every required field
                       and the first text field)
  --base-url <url>     a running sandbox or a tenant, instead of a sandbox of its own
  --token <token>      a token there with forms-read and manage-integrations (default: the
                       FORMS_API_TOKEN variable)
  --behaviour <name>   its own sandbox's behaviour: contract (default) or observed
  --keep               keep the integration after the delivery
  -h, --help           this text`;

const OPTIONS = {
  to: { type: 'string' },
  form: { type: 'string' },
  secret: { type: 'string' },
  answers: { type: 'string' },
  'base-url': { type: 'string' },
  token: { type: 'string' },
  behaviour: { type: 'string', default: 'contract' },
  keep: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h' },
} as const;

/** How long an event may take to be recorded: the service's 5 s delivery limit and then some. */
const EVENT_WAIT_MS = 15_000;

/** A plausible value for a field of these types; undefined for one a sample cannot fill (files). */
function sampleValue(field: Form['properties'][number]): unknown {
  const options = (field as { select?: { options?: Array<{ name: string }> } }).select?.options ?? [];
  switch (field.type) {
    case 'text':
      return 'Ada Lovelace';
    case 'email':
      return 'ada@example.com';
    case 'url':
      return 'https://example.com';
    case 'phone_number':
      return '+14155550100';
    case 'number':
    case 'rating':
    case 'scale':
    case 'slider':
      return 4;
    case 'checkbox':
      return true;
    case 'date':
      return '2026-01-15';
    case 'select':
      return options[0]?.name;
    case 'multi_select':
      return options[0] ? [options[0].name] : undefined;
    default:
      return undefined;
  }
}

function sampleAnswers(form: Form): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  const firstText = form.properties.find((f) => f.type === 'text');
  for (const field of form.properties) {
    if (!field.required && field !== firstText) continue;
    const value = sampleValue(field);
    if (value === undefined)
      throw new UsageError(
        `form ${form.id} requires its ${JSON.stringify(field.type)} field ${JSON.stringify(field.name)} (id ${JSON.stringify(field.id)}), which trigger cannot fill: pass --answers with a value for it.`,
      );
    answers[field.id] = value;
  }
  return answers;
}

function parsedAnswers(raw: string): Record<string, unknown> {
  let answers: unknown;
  try {
    answers = JSON.parse(raw);
  } catch (error) {
    throw new UsageError(`--answers must be a JSON object of answers by field id (${(error as Error).message}).`);
  }
  if (!answers || typeof answers !== 'object' || Array.isArray(answers))
    throw new UsageError('--answers must be a JSON object of answers by field id, such as {"<field id>": "Ada"}.');
  return answers as Record<string, unknown>;
}

/** Whether an event (the contract's shape or the service's) says the receiver took the delivery. */
const succeeded = (event: WebhookEvent) => {
  const status = (event as { status?: unknown }).status;
  return status === 'success' || status === 'Success';
};

export async function runTrigger(args: string[]): Promise<void> {
  const values = parseOptions(args, OPTIONS);
  if (values.help) return void console.log(HELP);
  if (!values.to || !URL.canParse(values.to) || !/^https?:$/.test(new URL(values.to).protocol))
    throw new UsageError(`--to must be your receiver's http(s) URL, such as http://127.0.0.1:3000/webhooks.`);
  const token = values.token ?? process.env.FORMS_API_TOKEN;
  if (values['base-url'] && !values.form) throw new UsageError('--form is required with --base-url.');
  if (values['base-url'] && !token) throw new UsageError('--base-url needs --token (or FORMS_API_TOKEN).');
  const own = values['base-url']
    ? undefined
    : await startSandbox({
        behaviour: values.behaviour as 'contract',
        allowPrivateWebhooks: true,
        rateLimit: false,
      });
  try {
    const client = createFormsClient({
      baseUrl: own?.baseUrl ?? values['base-url']!,
      token: own?.tokens.all ?? token!,
    });
    const formRef = values.form ?? '11';
    const form = await client.forms.get(/^\d+$/.test(formRef) ? Number(formRef) : formRef);
    const answers = values.answers ? parsedAnswers(values.answers) : sampleAnswers(form);
    const secret = values.secret ?? `whsec_${randomBytes(24).toString('base64url')}`;
    const saved = await client.integrations.create(form.id, {
      integration_id: 'webhook',
      status: 'active',
      data: { webhook_url: values.to, webhook_secret: secret },
    } as never);
    const integration = { form: form.id, integration: saved.form_integration.id };
    // What the tenant wrote is printed as JSON strings: escaped, it cannot drive the terminal.
    console.log(
      `Integration ${integration.integration} of form ${form.id} (${JSON.stringify(form.slug)}) sends to ${values.to}`,
    );
    // A secret you chose is yours already; a new one is printed once, for your receiver.
    console.log(values.secret ? 'Signed with the secret you gave.' : `Signing secret: ${secret}`);
    try {
      const accepted = await client.answers.submit(form.slug, answers as never);
      console.log(`Answered form ${JSON.stringify(form.slug)}: ${JSON.stringify(answers)}`);
      console.log(`Submission: ${JSON.stringify((accepted as { submission_id?: unknown }).submission_id)}`);
      let events: WebhookEvent[] = [];
      for (const started = Date.now(); events.length === 0 && Date.now() - started < EVENT_WAIT_MS;) {
        events = await client.integrations.events(integration);
        if (events.length === 0) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      if (events.length === 0) {
        console.log(`No delivery was recorded within ${EVENT_WAIT_MS / 1000} s (does the form's logic filter it?).`);
        process.exitCode = 1;
        return;
      }
      console.log(`Delivery, as recorded: ${JSON.stringify(events[0])}`);
      if (!succeeded(events[0]!)) process.exitCode = 1;
    } finally {
      if (!values.keep && !own) await client.integrations.delete(integration);
    }
  } catch (error) {
    if (!isFormsApiError(error)) throw error;
    console.error(`forms-sandbox trigger: ${error.message}`);
    process.exitCode = 1;
  } finally {
    await own?.close();
  }
}
