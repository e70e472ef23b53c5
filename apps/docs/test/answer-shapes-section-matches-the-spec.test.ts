// The guide's two shapes of one submission (section 10 of "Never lose a submission") are the spec's:
// the webhook is the reference's own example and validates as the payload, the listed one validates
// as a Submission, and the two carry the same id and the same answers.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createSpecValidator, formatErrors } from '@forms-api/spec/validator';
import { describe, expect, it } from 'vitest';
import { appDir } from '../src/build.ts';

const require = createRequire(import.meta.url);
const bundle = require('@forms-api/spec/openapi.json');
const validator = createSpecValidator(bundle);

const guide = readFileSync(join(appDir, 'guides/05-never-lose-a-submission.md'), 'utf8');
const section = guide.slice(guide.indexOf('## 10. Store one shape of answers'), guide.indexOf('## Checklist'));
const [webhook, listed] = [...section.matchAll(/^```json\n([\s\S]*?)\n```$/gm)].map((m) => JSON.parse(m[1]!));

describe('the guide section on the two shapes of answers', () => {
  it('shows the webhook as the reference example of submission.created, valid as its payload', () => {
    const example = bundle.webhooks['submission.created'].post.requestBody.content['application/json'].examples;
    expect(webhook).toEqual(example.contactForm.value);
    const result = validator.validateWebhookPayload(webhook);
    expect(formatErrors(result.errors)).toEqual([]);
  });

  it('shows the same submission as the list gives it, valid as a Submission', () => {
    const result = validator.validateComponent('Submission', listed);
    expect(formatErrors(result.errors)).toEqual([]);
    expect(listed.id).toBe(webhook.submission_id);
    expect(listed.data.id).toBe(webhook.submission_id);
    expect(listed.form_id).toBe(webhook.form_id);
    for (const [fieldId, answer] of Object.entries<{ value: unknown }>(webhook.data))
      expect(listed.data[fieldId], fieldId).toEqual(answer.value);
  });

  it('says which shape to store and how to turn a webhook into it', () => {
    expect(section).toContain("Store the list's shape, keyed by `id`");
    // The inbox hands both sources over in one shape, the client's; by hand, a webhook's values.
    expect(section.replace(/\s+/g, ' ')).toContain('`NormalisedSubmission` of `@forms-api/client/submissions`');
    expect(section).toContain('function answersFromWebhook(payload: SubmissionCreatedPayload)');
  });
});
