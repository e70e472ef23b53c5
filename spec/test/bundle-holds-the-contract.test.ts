// The bundle is valid OpenAPI 3.1 and holds every operation of the contract with its ability and
// statuses, the submission.created webhook, and the resources field for field as the seed has them.
// It promises no status or bound the published contract does not state unless it marks it observed.
import { describe, expect, it } from 'vitest';
import { createSpecValidator } from '../lib/validator.mjs';
import { bundle, operations, resolve } from './load-bundle.js';

const byId = new Map([...operations()].map((o) => [o.operation.operationId, o]));

const expectedOperations: Array<[string, string, string, string | null, string[]]> = [
  [
    'listWorkspaceForms',
    'get',
    '/open/workspaces/{workspaceId}/forms',
    'forms-read',
    ['200', '401', '403', '404', '429'],
  ],
  ['listFormSubmissions', 'get', '/open/forms/{id}/submissions', 'forms-read', ['200', '401', '403', '404', '429']],
  [
    'updateFormSubmission',
    'put',
    '/open/forms/{id}/submissions/{submission_id}',
    'forms-write',
    ['200', '401', '403', '404', '422', '429'],
  ],
  [
    'deleteFormIntegration',
    'delete',
    '/open/forms/{form}/integrations/{integrationid}',
    'manage-integrations',
    ['200', '401', '403', '404', '429'],
  ],
  [
    'listIntegrationEvents',
    'get',
    '/open/forms/{form}/integrations/{integrationid}/events',
    'manage-integrations',
    ['200', '401', '403', '404', '429'],
  ],
  ['getForm', 'get', '/open/forms/{form}', 'forms-read', ['200', '401', '403', '404', '429']],
  [
    'listFormIntegrations',
    'get',
    '/open/forms/{form}/integrations',
    'manage-integrations',
    ['200', '401', '403', '404', '429'],
  ],
  [
    'createFormIntegration',
    'post',
    '/open/forms/{form}/integrations',
    'manage-integrations',
    ['200', '401', '403', '404', '422', '429'],
  ],
  [
    'updateFormIntegration',
    'put',
    '/open/forms/{form}/integrations/{integrationid}',
    'manage-integrations',
    ['200', '401', '403', '404', '422', '429'],
  ],
  ['listAllForms', 'get', '/open/forms', 'forms-read', ['200', '401', '403', '429']],
  ['createForm', 'post', '/open/forms', 'forms-write', ['200', '401', '403', '422', '429']],
  ['updateForm', 'put', '/open/forms/{form}', 'forms-write', ['200', '401', '403', '404', '422', '429']],
  ['deleteForm', 'delete', '/open/forms/{form}', 'forms-write', ['200', '401', '403', '404', '429']],
  [
    'deleteFormSubmission',
    'delete',
    '/open/forms/{id}/submissions/{submission_id}',
    'forms-write',
    ['200', '401', '403', '404', '429'],
  ],
  [
    'exportFormSubmissions',
    'post',
    '/open/forms/{id}/submissions/export',
    'forms-read',
    ['200', '401', '403', '404', '422', '429'],
  ],
  ['listWorkspaces', 'get', '/open/workspaces', 'workspaces-read', ['200', '401', '403', '429']],
  ['createWorkspace', 'post', '/open/workspaces/create', 'workspaces-write', ['200', '401', '403', '422', '429']],
  [
    'updateWorkspace',
    'put',
    '/open/workspaces/{workspaceId}',
    'workspaces-write',
    ['200', '401', '403', '404', '422', '429'],
  ],
  [
    'deleteWorkspace',
    'delete',
    '/open/workspaces/{workspaceId}',
    'workspaces-write',
    ['200', '401', '403', '404', '429'],
  ],
  [
    'listWorkspaceUsers',
    'get',
    '/open/workspaces/{workspaceId}/users',
    'workspaces-read',
    ['200', '401', '403', '404', '429'],
  ],
  [
    'addWorkspaceUser',
    'post',
    '/open/workspaces/{workspaceId}/users/add',
    'workspaces-write',
    ['200', '400', '401', '403', '404', '422', '429'],
  ],
  [
    'removeWorkspaceUser',
    'delete',
    '/open/workspaces/{workspaceId}/users/{userId}/remove',
    'workspaces-write',
    ['200', '401', '403', '404', '429'],
  ],
  [
    'updateWorkspaceUserRole',
    'put',
    '/open/workspaces/{workspaceId}/users/{userId}/update-role',
    'workspaces-write',
    ['200', '401', '403', '404', '422', '429'],
  ],
  [
    'leaveWorkspace',
    'post',
    '/open/workspaces/{workspaceId}/leave',
    'workspaces-read',
    ['200', '401', '403', '404', '429'],
  ],
  [
    'listWorkspaceInvites',
    'get',
    '/open/workspaces/{workspaceId}/invites',
    'workspaces-write',
    ['200', '401', '403', '404', '429'],
  ],
  [
    'resendWorkspaceInvite',
    'post',
    '/open/workspaces/{workspaceId}/invites/{inviteId}/resend',
    'workspaces-write',
    ['200', '400', '401', '403', '404', '429'],
  ],
  [
    'cancelWorkspaceInvite',
    'delete',
    '/open/workspaces/{workspaceId}/invites/{inviteId}/cancel',
    'workspaces-write',
    ['200', '400', '401', '403', '404', '429'],
  ],
  ['createFormAnswer', 'post', '/forms/{form}/answer', null, ['200', '403', '404', '422', '429']],
  [
    'downloadSubmissionFile',
    'get',
    '/open/forms/{form}/submissions/file/{filename}',
    null,
    ['200', '302', '403', '404'],
  ],
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
        // A body may be one of several shapes (anyOf); each of them carries `message`.
        for (const shape of (schema?.anyOf ?? [schema]).map(resolve)) {
          expect(shape?.required, `${operationId} ${status} uses a shared error schema`).toContain('message');
        }
      }
    }
  });

  it('bounds the submission list parameters as the contract says, and marks the observed bounds', () => {
    const params = Object.fromEntries(
      byId.get('listFormSubmissions')!.operation.parameters.map((p: any) => [resolve(p).name, resolve(p)]),
    );
    expect(params.page.schema).toMatchObject({ type: 'integer', minimum: 1, default: 1, 'x-observed': true });
    expect(params.page.schema).not.toHaveProperty('maximum');
    expect(params.page.description).toMatch(/read as 1/);
    expect(params.per_page.schema).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 100,
      default: 100,
      'x-observed': true,
    });
    expect(params.per_page.description).toMatch(/15 per page/);
    expect(params.search.schema).toMatchObject({ type: 'string', minLength: 1, 'x-observed': true });
    expect(params.search.schema).not.toHaveProperty('maxLength');
    expect(params.status.schema).toMatchObject({ enum: ['completed', 'partial', 'all'], default: 'all' });
    expect(params.status.description).toMatch(/Pro feature/);
    expect(params.status.description).toMatch(/any other value is ignored/);
  });

  it('promises no 422 and no 402 on the two list operations: the contract shows neither', () => {
    for (const id of ['listWorkspaceForms', 'listFormSubmissions']) {
      const statuses = Object.keys(byId.get(id)!.operation.responses);
      expect(statuses, id).not.toContain('422');
      expect(statuses, id).not.toContain('402');
    }
    expect(bundle.components.responses).not.toHaveProperty('PlanFeatureRequired');
    expect(bundle.components.schemas).not.toHaveProperty('PlanFeatureError');
  });

  it('clamps, never refuses, the workspace list page size (observed)', () => {
    const perPage = byId
      .get('listWorkspaceForms')!
      .operation.parameters.map(resolve)
      .find((p: any) => p.name === 'per_page');
    expect(perPage['x-observed']).toBe(true);
    expect(perPage.schema).toMatchObject({ minimum: 1, maximum: 100, default: 10 });
    expect(perPage.description).toMatch(/clamped, never refused/);
  });

  it('answers path ids that name nothing with 404 and invents no ceiling for them', () => {
    for (const name of ['WorkspaceId', 'FormId', 'FormRef', 'IntegrationId', 'SubmissionId']) {
      const parameter = bundle.components.parameters[name];
      expect(parameter.schema, name).toMatchObject({ type: 'integer', minimum: 1, 'x-observed': true });
      expect(parameter.schema, name).not.toHaveProperty('maximum');
      expect(parameter.description, name).toMatch(/404, not 422/);
    }
  });

  it('describes the download redirect to storage as observed, and the local download as octet-stream', () => {
    const download = byId.get('downloadSubmissionFile')!.operation;
    expect(download.responses['302']).toMatchObject({
      'x-observed': true,
      headers: { Location: { required: true, schema: { type: 'string', format: 'uri' } } },
    });
    expect(download.responses['302'].description).toMatch(/one minute/);
    expect(Object.keys(download.responses['200'].content)).toEqual(['application/octet-stream']);
    expect(download.responses['200'].content['application/octet-stream'].schema).not.toHaveProperty('maxLength');
  });

  it('describes the 500 for an integration body without a known integration_id (observed)', () => {
    for (const id of ['createFormIntegration', 'updateFormIntegration']) {
      expect(byId.get(id)!.operation.responses['500'].description, id).toMatch(/integration_id/);
    }
  });

  it('allows an Authorization custom webhook header, as the contract offers one', () => {
    const validator = createSpecValidator(bundle);
    const headers = bundle.components.schemas.WebhookHeaders;
    expect(headers['x-blocked-header-names']).not.toContain('Authorization');
    expect(validator.validateComponent('WebhookHeaders', { Authorization: 'Bearer receiver-token' }).valid).toBe(true);
    expect(validator.validateComponent('WebhookHeaders', { 'x-webhook-signature': 'sha256=00' }).valid).toBe(false);
    expect(headers.description).toMatch(/known drift/);
  });

  it('refuses a custom header named by a whole number, which the service reads as an integer key (observed)', () => {
    const validator = createSpecValidator(bundle);
    for (const name of ['8', '0', '-12', '9223372036854775807'])
      expect(validator.validateComponent('WebhookHeaders', { [name]: 'v' }).valid, name).toBe(false);
    for (const name of ['08', '-0', 'X-8', '8a', '12345678901234567890'])
      expect(validator.validateComponent('WebhookHeaders', { [name]: 'v' }).valid, name).toBe(true);
    expect(bundle.components.schemas.WebhookHeaders.description).toMatch(/WebhookIntegration\.php:50-54 at aee613da/);
  });

  it('takes the event property names from the service API reference, not from observation', () => {
    const event = bundle.components.schemas.WebhookEvent;
    expect(event).not.toHaveProperty('x-observed');
    expect(event.description).toMatch(/API reference/);
    expect(event.description).toMatch(/not observed/);
  });

  it('answers an empty partial answer with the plain error body (observed)', () => {
    const validator = createSpecValidator(bundle);
    expect(
      validator.validateResponse('createFormAnswer', 422, {
        type: 'error',
        message: 'At least one field must have a value for partial submissions.',
      }).valid,
    ).toBe(true);
    expect(
      validator.validateResponse('createFormAnswer', 422, {
        message: 'The Name field is required.',
        errors: { f: ['The Name field is required.'] },
      }).valid,
    ).toBe(true);
    expect(validator.validateResponse('createFormAnswer', 422, { errors: {} }).valid).toBe(false);
  });

  it('types both answers of the export and says a token cannot follow its job', () => {
    const validator = createSpecValidator(bundle);
    const exportOp = byId.get('exportFormSubmissions')!.operation;
    expect(Object.keys(exportOp.responses['200'].content)).toEqual(['text/csv', 'application/json']);
    expect(exportOp.description).toMatch(/cannot reach the export's result/);
    expect(exportOp.responses['429'].$ref).toBe('#/components/responses/ExportRateLimited');
    expect(bundle.components.headers.ExportRateLimitLimit.description).toMatch(/\(10\)/);
    const started = { type: 'success', message: 'Export started.', job_id: crypto.randomUUID(), is_async: true };
    expect(validator.validateComponent('SubmissionExportStarted', started).valid).toBe(true);
    expect(validator.validateComponent('SubmissionExportStarted', { ...started, is_async: false }).valid).toBe(false);
    expect(validator.validateComponent('SubmissionExportRequest', { columns: {} }).valid).toBe(false);
  });

  it('asks for the whole form on an update, as the service does (upstream #921)', () => {
    const update = byId.get('updateForm')!.operation;
    expect(update.description).toMatch(/whole form/);
    expect(update.description).toMatch(/#921/);
    const input = bundle.components.schemas.FormInput;
    expect(input.required).toEqual(expect.arrayContaining(['title', 'visibility', 'language', 'theme', 'properties']));
    expect(input.properties.properties.minItems).toBe(1);
    const validator = createSpecValidator(bundle);
    expect(validator.validateComponent('FormInput', { title: 'Only the title' }).valid).toBe(false);
  });

  it('refuses a title or a colour of only spaces, which the service trims to nothing before requiring it (observed)', () => {
    const validator = createSpecValidator(bundle);
    const form = bundle.components.schemas.FormInput.properties;
    const valid = (key: string, value: string) => validator.validateComponent('FormInput', { [key]: value }).errors;
    const about = (key: string, value: string) =>
      (valid(key, value) ?? []).some((e: any) => e.instancePath === `/${key}`);
    for (const key of ['title', 'color']) {
      for (const blank of [' ', '   ', '\t\n']) expect(about(key, blank), `${key} ${JSON.stringify(blank)}`).toBe(true);
      for (const text of ['A', ' A ', '#3B82F6'])
        expect(about(key, text), `${key} ${JSON.stringify(text)}`).toBe(false);
      expect(form[key].description).toMatch(/Kernel\.php:45-46/);
    }
  });

  it('names members and invitations in paths, and checks the workspace abilities the service checks', () => {
    expect(bundle.components.parameters.UserId['x-identifies']).toBe('user');
    expect(bundle.components.parameters.InviteId['x-identifies']).toBe('invite');
    const abilities = new Set(
      [...operations()].flatMap((o) => o.operation.security.flatMap((r: any) => r.personalAccessToken ?? [])),
    );
    expect(abilities).toContain('workspaces-read');
    expect(abilities).toContain('workspaces-write');
    // Tokens can carry these two, but the service checks them nowhere: no operation may ask for them.
    expect(abilities).not.toContain('workspace-users-read');
    expect(abilities).not.toContain('workspace-users-write');
    const validator = createSpecValidator(bundle);
    const refused = { type: 'error', success: false, message: 'Invite already accepted.' };
    expect(validator.validateResponse('cancelWorkspaceInvite', 400, refused).valid).toBe(true);
    expect(validator.validateResponse('cancelWorkspaceInvite', 400, { ...refused, success: true }).valid).toBe(false);
  });

  it('describes submission.created with its signature header and the standalone payload schema', () => {
    const webhook = resolve(bundle.webhooks['submission.created']).post;
    const signature = webhook.parameters.find((p: any) => p.name === 'X-Webhook-Signature');
    expect(signature).toMatchObject({ in: 'header', required: false, schema: { pattern: '^sha256=[0-9a-f]{64}$' } });
    expect(webhook.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/SubmissionCreatedPayload',
    );
    expect(resolve(webhook.requestBody.content['application/json'].schema).required).toEqual([
      'form_id',
      'form_title',
      'submission_id',
      'submission',
    ]);
  });

  const seedFields: Array<[string, string[]]> = [
    [
      'FormSummary',
      [
        'id',
        'slug',
        'title',
        'visibility',
        'tags',
        'views_count',
        'submissions_count',
        'created_at',
        'updated_at',
        'last_edited_human',
        'closes_at',
        'is_closed',
        'max_submissions_count',
        'max_number_of_submissions_reached',
        'is_pro',
        'workspace_id',
        'share_url',
      ],
    ],
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
    expect([links.prev.type, links.next.type]).toEqual([
      ['string', 'null'],
      ['string', 'null'],
    ]);
    expect(bundle.components.schemas.UpdatedSubmission.properties.data.required).toEqual([
      'submission_id',
      'form_id',
      'submitted_at',
      'data',
    ]);
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
    for (const expected of [
      '/components/schemas/Form',
      '/components/responses/Unauthenticated',
      '/components/responses/RateLimited',
      '/components/parameters/Page/schema',
      '/components/schemas/PaginationMeta/properties/per_page',
      '/components/schemas/FormSummaryPage/properties/data',
      '/components/schemas/SubmissionUpdate/properties/completion_time',
    ]) {
      expect(
        observed.some((p) => p.endsWith(expected)),
        expected,
      ).toBe(true);
    }
    expect(observed.some((p) => p.endsWith('/components/schemas/WebhookEvent'))).toBe(false);
  });
});
