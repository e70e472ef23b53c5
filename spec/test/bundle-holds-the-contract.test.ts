// The bundle is valid OpenAPI 3.1 and holds every operation of the contract with its ability and
// statuses, the submission.created webhook, and the resources field for field as the seed has them.
import { describe, expect, it } from 'vitest';
import { bundle, operations, resolve } from './load-bundle.js';

const byId = new Map([...operations()].map((o) => [o.operation.operationId, o]));

const expectedOperations: Array<[string, string, string, string | null, string[]]> = [
  ['listWorkspaceForms', 'get', '/open/workspaces/{workspaceId}/forms', 'forms-read', ['200', '401', '403', '404', '429']],
  ['listFormSubmissions', 'get', '/open/forms/{id}/submissions', 'forms-read', ['200', '401', '403', '404', '422', '429']],
  ['updateFormSubmission', 'put', '/open/forms/{id}/submissions/{submission_id}', 'forms-write', ['200', '401', '403', '404', '422', '429']],
  ['deleteFormIntegration', 'delete', '/open/forms/{form}/integrations/{integrationid}', 'manage-integrations', ['200', '401', '403', '404', '429']],
  ['listIntegrationEvents', 'get', '/open/forms/{form}/integrations/{integrationid}/events', 'manage-integrations', ['200', '401', '403', '404', '429']],
  ['getForm', 'get', '/open/forms/{form}', 'forms-read', ['200', '401', '403', '404', '429']],
  ['listFormIntegrations', 'get', '/open/forms/{form}/integrations', 'manage-integrations', ['200', '401', '403', '404', '429']],
  ['createFormIntegration', 'post', '/open/forms/{form}/integrations', 'manage-integrations', ['200', '401', '403', '404', '422', '429']],
  ['updateFormIntegration', 'put', '/open/forms/{form}/integrations/{integrationid}', 'manage-integrations', ['200', '401', '403', '404', '422', '429']],
  ['createFormAnswer', 'post', '/forms/{form}/answer', null, ['200', '403', '404', '422', '429']],
  ['downloadSubmissionFile', 'get', '/open/forms/{form}/submissions/file/{filename}', null, ['200', '403', '404']],
];

describe('the bundled spec', () => {
  it('is OpenAPI 3.1 with the 2020-12 dialect, a licence, a contact and a templated server', () => {
    expect(bundle.openapi).toBe('3.1.0');
    expect(bundle.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(bundle.info.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(bundle.info.license.identifier).toBe('MIT');
    expect(bundle.info.contact.url).toMatch(/^https:\/\//);
    expect(bundle.servers[0].url).toBe('{base_url}');
    expect(bundle.servers[0].variables.base_url.default).toMatch(/^https:\/\//);
  });

  it('holds exactly the expected operations', () => {
    expect([...byId.keys()].sort()).toEqual(expectedOperations.map(([id]) => id).sort());
  });

  it.each(expectedOperations)('%s: %s %s needs %s and documents %j', (operationId, method, path, ability, statuses) => {
    const entry = byId.get(operationId)!;
    expect(entry.method).toBe(method);
    expect(entry.path).toBe(path);
    expect(entry.operation.tags?.length).toBeGreaterThan(0);
    expect(entry.operation.summary).toBeTruthy();
    expect(entry.operation.description).toMatch(/\*\*Ability:\*\*/);
    if (ability) {
      expect(entry.operation.security.flatMap((r: any) => r.personalAccessToken)).toContain(ability);
    } else {
      expect(entry.operation.security).toEqual([]);
    }
    for (const status of statuses) expect(Object.keys(entry.operation.responses)).toContain(status);
    for (const [status, response] of Object.entries<any>(entry.operation.responses)) {
      if (status.startsWith('4') && status !== '401') {
        const schema = resolve(resolve(response).content?.['application/json']?.schema);
        expect(schema?.required, `${operationId} ${status} uses a shared error schema`).toContain('message');
      }
    }
  });

  it('bounds the submission list parameters as the contract says', () => {
    const params = Object.fromEntries(byId.get('listFormSubmissions')!.operation.parameters.map((p: any) => [resolve(p).name, resolve(p)]));
    expect(params.page.schema).toMatchObject({ type: 'integer', minimum: 1, default: 1 });
    expect(params.per_page.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 100 });
    expect(params.search.schema.type).toBe('string');
    expect(params.status.schema).toMatchObject({ enum: ['completed', 'partial', 'all'], default: 'all' });
  });

  it('describes submission.created with its signature header and the standalone payload schema', () => {
    const webhook = resolve(bundle.webhooks['submission.created']).post;
    const signature = webhook.parameters.find((p: any) => p.name === 'X-Webhook-Signature');
    expect(signature).toMatchObject({ in: 'header', required: false, schema: { pattern: '^sha256=[0-9a-f]{64}$' } });
    expect(webhook.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/SubmissionCreatedPayload');
    expect(resolve(webhook.requestBody.content['application/json'].schema).required).toEqual(['form_id', 'form_title', 'submission_id', 'submission']);
  });

  const seedFields: Array<[string, string[]]> = [
    ['FormSummary', ['id', 'slug', 'title', 'visibility', 'tags', 'views_count', 'submissions_count', 'created_at', 'updated_at', 'last_edited_human', 'closes_at', 'is_closed', 'max_submissions_count', 'max_number_of_submissions_reached', 'is_pro', 'workspace_id', 'share_url']],
    ['Submission', ['data', 'completion_time', 'form_id', 'id']],
    ['FileEntry', ['file_url', 'file_name']],
    ['UpdatedSubmission', ['message', 'data']],
    ['WebhookEvent', ['id', 'integration_id', 'event', 'status', 'response_code', 'error_message', 'created_at']],
    ['PaginationLinks', ['first', 'last', 'prev', 'next']],
    ['PaginationMeta', ['current_page', 'from', 'last_page', 'links', 'path', 'per_page', 'to', 'total']],
    ['SubmissionPage', ['data', 'links', 'meta']],
    ['FormSummaryPage', ['data', 'meta']],
  ];
  it.each(seedFields)('%s has exactly the seed fields, all required, in order', (name, fields) => {
    const schema = bundle.components.schemas[name];
    expect(Object.keys(schema.properties)).toEqual(fields);
    expect(schema.required).toEqual(fields);
  });

  it('keeps nullability exactly as the seed says', () => {
    const summary = bundle.components.schemas.FormSummary.properties;
    expect(resolve(summary.closes_at).oneOf.map((s: any) => resolve(s).type)).toEqual(['string', 'null']);
    expect(summary.max_submissions_count.type).toEqual(['integer', 'null']);
    expect(summary.tags.type).toBe('array');
    expect(bundle.components.schemas.Submission.properties.completion_time.type).toEqual(['number', 'null']);
    const links = bundle.components.schemas.PaginationLinks.properties;
    expect([links.first.type, links.last.type]).toEqual(['string', 'string']);
    expect([links.prev.type, links.next.type]).toEqual([['string', 'null'], ['string', 'null']]);
    expect(bundle.components.schemas.UpdatedSubmission.properties.data.required).toEqual(['submission_id', 'form_id', 'submitted_at', 'data']);
    expect(bundle.components.schemas.WebhookEvent.properties.status.enum).toEqual(['success', 'failed', 'timeout']);
    expect(bundle.components.schemas.SubmissionStatus.enum).toEqual(['completed', 'partial']);
  });

  it('marks every element taken from observation', () => {
    const observed: string[] = [];
    const visit = (node: any, path: string) => {
      if (!node || typeof node !== 'object') return;
      if (node['x-observed'] === true) observed.push(path);
      for (const [k, v] of Object.entries(node)) visit(v, `${path}/${k}`);
    };
    visit(bundle, '#');
    for (const expected of ['/components/schemas/Form', '/components/schemas/WebhookEvent', '/components/responses/Unauthenticated', '/components/responses/RateLimited']) {
      expect(observed.some((p) => p.endsWith(expected))).toBe(true);
    }
  });
});
