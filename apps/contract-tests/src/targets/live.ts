// The `live` target: a real tenant, described by environment variables or a JSON config file
// (`--config contract.config.json`; the environment wins). Read-only unless --write.
import { readFileSync } from 'node:fs';
import { tokenSecrets, type Target, type TargetTokens } from './target.js';

/** Each setting: its environment variable, its key in the config file, and its type. */
const SETTINGS = {
  baseUrl: { env: 'FORMS_API_BASE_URL', type: 'url' },
  token: { env: 'FORMS_API_TOKEN', type: 'string' },
  workspaceId: { env: 'FORMS_API_WORKSPACE_ID', type: 'id' },
  formId: { env: 'FORMS_API_FORM_ID', type: 'id' },
  formSlug: { env: 'FORMS_API_FORM_SLUG', type: 'string' },
  submissionId: { env: 'FORMS_API_SUBMISSION_ID', type: 'id' },
  integrationId: { env: 'FORMS_API_INTEGRATION_ID', type: 'id' },
  freeFormId: { env: 'FORMS_API_FREE_FORM_ID', type: 'id' },
  tokenWithoutFormsRead: { env: 'FORMS_API_TOKEN_WITHOUT_FORMS_READ', type: 'string' },
  tokenWithoutFormsWrite: { env: 'FORMS_API_TOKEN_WITHOUT_FORMS_WRITE', type: 'string' },
  tokenWithoutManageIntegrations: { env: 'FORMS_API_TOKEN_WITHOUT_MANAGE_INTEGRATIONS', type: 'string' },
  tokenWithoutAbilities: { env: 'FORMS_API_TOKEN_WITHOUT_ABILITIES', type: 'string' },
  tokenIntegrationsOnly: { env: 'FORMS_API_TOKEN_INTEGRATIONS_ONLY', type: 'string' },
  webhookReceiverUrl: { env: 'FORMS_API_WEBHOOK_RECEIVER_URL', type: 'url' },
  webhookReceiverPort: { env: 'FORMS_API_WEBHOOK_RECEIVER_PORT', type: 'port' },
} as const;

type SettingKey = keyof typeof SETTINGS;
export type LiveSettings = Partial<Record<SettingKey, string>>;

const REQUIRED: SettingKey[] = ['baseUrl', 'token', 'workspaceId', 'formId'];
/** What --write needs besides the read-only settings. */
const REQUIRED_FOR_WRITE: SettingKey[] = ['submissionId'];

export interface ConfigError {
  readonly kind: 'config';
  readonly message: string;
  /** Environment variables (or config keys) that are missing. */
  readonly missing: string[];
}

export type LiveConfigResult = { ok: true; settings: LiveSettings } | { ok: false; error: ConfigError };

function readConfigFile(path: string): { ok: true; values: LiveSettings } | { ok: false; error: ConfigError } {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    return { ok: false, error: { kind: 'config', message: `cannot read the config file ${path}: ${error instanceof Error ? error.message : String(error)}`, missing: [] } };
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, error: { kind: 'config', message: `${path}: expected a JSON object`, missing: [] } };
  const values: LiveSettings = {};
  const problems: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (key === '$schema') continue;
    if (!(key in SETTINGS)) {
      problems.push(`unknown key "${key}" (known: ${Object.keys(SETTINGS).join(', ')})`);
      continue;
    }
    if (typeof value !== 'string' && typeof value !== 'number') {
      problems.push(`"${key}" must be a string or a number`);
      continue;
    }
    values[key as SettingKey] = String(value);
  }
  if (problems.length > 0) return { ok: false, error: { kind: 'config', message: `${path}: ${problems.join('; ')}`, missing: [] } };
  return { ok: true, values };
}

/** Reads and validates the live settings; every missing required variable is named. */
export function loadLiveConfig(options: { env: NodeJS.ProcessEnv; configPath?: string; write: boolean }): LiveConfigResult {
  let values: LiveSettings = {};
  if (options.configPath) {
    const file = readConfigFile(options.configPath);
    if (!file.ok) return file;
    values = file.values;
  }
  for (const [key, setting] of Object.entries(SETTINGS)) {
    const fromEnv = options.env[setting.env];
    if (fromEnv !== undefined && fromEnv !== '') values[key as SettingKey] = fromEnv;
  }
  const required = [...REQUIRED, ...(options.write ? REQUIRED_FOR_WRITE : [])];
  const missing = required.filter((key) => !values[key]).map((key) => SETTINGS[key].env);
  if (missing.length > 0) {
    return {
      ok: false,
      error: {
        kind: 'config',
        message: `the live target needs ${missing.join(', ')}${options.write ? ' (--write needs FORMS_API_SUBMISSION_ID)' : ''}: set ${missing.length > 1 ? 'them' : 'it'} in the environment or in the --config file (keys: ${required.filter((k) => !values[k]).join(', ')})`,
        missing,
      },
    };
  }
  const invalid: string[] = [];
  for (const [key, value] of Object.entries(values) as Array<[SettingKey, string]>) {
    const { type, env } = SETTINGS[key];
    if (type === 'id' && !/^[1-9][0-9]{0,15}$/.test(value)) invalid.push(`${env} must be a positive integer id`);
    if (type === 'port' && !/^[0-9]{1,5}$/.test(value)) invalid.push(`${env} must be a port number`);
    if (type === 'url' && !/^https?:\/\/[^\s]+$/.test(value)) invalid.push(`${env} must be an http(s) URL`);
  }
  if (invalid.length > 0) return { ok: false, error: { kind: 'config', message: invalid.join('; '), missing: [] } };
  return { ok: true, settings: values };
}

const num = (value: string | undefined): number | undefined => (value === undefined ? undefined : Number(value));

/** A live target from validated settings. Nothing is started: the tenant is already there. */
export function liveTarget(settings: LiveSettings, options: { write: boolean; proxyPass: boolean; name?: string }): Target {
  const tokens: TargetTokens = {
    main: settings.token!,
    ...(settings.tokenWithoutFormsRead ? { withoutFormsRead: settings.tokenWithoutFormsRead } : {}),
    ...(settings.tokenWithoutFormsWrite ? { withoutFormsWrite: settings.tokenWithoutFormsWrite } : {}),
    ...(settings.tokenWithoutManageIntegrations ? { withoutManageIntegrations: settings.tokenWithoutManageIntegrations } : {}),
    ...(settings.tokenWithoutAbilities ? { withoutAbilities: settings.tokenWithoutAbilities } : {}),
    ...(settings.tokenIntegrationsOnly ? { integrationsOnly: settings.tokenIntegrationsOnly } : {}),
  };
  const receiverUrl = settings.webhookReceiverUrl;
  const ids = Object.fromEntries(
    Object.entries({
      workspaceId: num(settings.workspaceId),
      formId: num(settings.formId),
      formSlug: settings.formSlug,
      submissionId: num(settings.submissionId),
      integrationId: num(settings.integrationId),
      freeFormId: num(settings.freeFormId),
    }).filter(([, v]) => v !== undefined),
  ) as unknown as Target['ids'];
  return {
    name: options.name ?? 'live',
    kind: 'live',
    baseUrl: settings.baseUrl!.replace(/\/+$/, ''),
    tokens,
    ids,
    write: options.write,
    // The receiver URL is public (a tunnel) and forwards to the suite's receiver on a fixed port.
    ...(receiverUrl ? { webhooks: { listenPort: Number(settings.webhookReceiverPort ?? 8787), receiverUrl: () => receiverUrl } } : {}),
    proxyPass: options.proxyPass,
    secrets: tokenSecrets(tokens),
    stop: async () => {},
  };
}
