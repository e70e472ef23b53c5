// The `live` target: a real tenant, described by environment variables or a JSON config file
// (`--config contract.config.json`; the environment wins). Read-only unless --write.
import { readFileSync } from 'node:fs';
import type { RequestPacer } from '@forms-api/client';
import type { Result } from '@forms-api/types';
import { ContractTestsError } from '../errors.js';
import { envVariableOf } from './settings.js';
import { targetReceiver } from '../webhooks/receiver.js';
import { TOKEN_ROLES, tokenSecrets, type Target, type TargetTokens, type TokenName } from './target.js';

/** Each setting by its one name (the config key; the variable is FORMS_API_ + CONSTANT_CASE), and its type. */
const SETTINGS = {
  baseUrl: 'url',
  token: 'string',
  workspaceId: 'id',
  formId: 'id',
  formSlug: 'string',
  submissionId: 'id',
  integrationId: 'id',
  freeFormId: 'id',
  captchaFormId: 'id',
  foreignFormId: 'id',
  foreignWorkspaceId: 'id',
  memberEmail: 'string',
  tokenWithoutFormsRead: 'string',
  tokenWithoutFormsWrite: 'string',
  tokenWithoutManageIntegrations: 'string',
  tokenWithoutAbilities: 'string',
  tokenIntegrationsOnly: 'string',
  otherUserToken: 'string',
  webhookReceiverUrl: 'url',
  webhookReceiverPort: 'port',
} as const;

export type SettingKey = keyof typeof SETTINGS;

/** Whether a setting names an id of the tenant (`formId`): what the suite fills a path parameter from. */
export const isIdSetting = (key: string): boolean => (SETTINGS as Record<string, string>)[key] === 'id';
export type LiveSettings = Partial<Record<SettingKey, string>>;

/** The live settings present in the environment, by variable (values are never shown). */
export function liveSettingsInEnvironment(env: NodeJS.ProcessEnv): string[] {
  return (Object.keys(SETTINGS) as SettingKey[]).map(envVariableOf).filter((variable) => (env[variable] ?? '') !== '');
}

const REQUIRED: SettingKey[] = ['baseUrl', 'token', 'workspaceId', 'formId'];
/** What --write needs besides the read-only settings. */
const REQUIRED_FOR_WRITE: SettingKey[] = ['submissionId'];
/** What --own-form needs: the workspace its form is made in (the form and submission are the run's). */
const REQUIRED_FOR_OWN_FORM: SettingKey[] = ['baseUrl', 'token', 'workspaceId'];

/** A `live_config` error; `context.missing` lists the environment variables that are missing. */
const configError = (message: string, missing: string[] = []): ContractTestsError =>
  new ContractTestsError('live_config', message, { context: { missing } });

function readConfigFile(path: string): Result<LiveSettings, ContractTestsError> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    return {
      ok: false,
      error: configError(
        `cannot read the config file ${path}: ${error instanceof Error ? error.message : String(error)}`,
      ),
    };
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    return { ok: false, error: configError(`${path}: expected a JSON object`) };
  const values: LiveSettings = {};
  const problems: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (key === '$schema') continue;
    if (!Object.hasOwn(SETTINGS, key)) {
      problems.push(`unknown key "${key}" (known: ${Object.keys(SETTINGS).join(', ')})`);
      continue;
    }
    if (typeof value !== 'string' && typeof value !== 'number') {
      problems.push(`"${key}" must be a string or a number`);
      continue;
    }
    values[key as SettingKey] = String(value);
  }
  if (problems.length > 0) return { ok: false, error: configError(`${path}: ${problems.join('; ')}`) };
  return { ok: true, value: values };
}

/** Reads and validates the live settings; every missing required variable is named. */
export function loadLiveConfig(options: {
  env: NodeJS.ProcessEnv;
  configPath?: string;
  write: boolean;
  /** --own-form (with write): FORMS_API_FORM_ID and FORMS_API_SUBMISSION_ID are optional. */
  ownForm?: boolean;
}): Result<LiveSettings, ContractTestsError> {
  let values: LiveSettings = {};
  if (options.configPath) {
    const file = readConfigFile(options.configPath);
    if (!file.ok) return file;
    values = file.value;
  }
  for (const key of Object.keys(SETTINGS) as SettingKey[]) {
    const fromEnv = options.env[envVariableOf(key)];
    if (fromEnv !== undefined && fromEnv !== '') values[key] = fromEnv;
  }
  const ownForm = options.write && options.ownForm === true;
  const required = ownForm ? REQUIRED_FOR_OWN_FORM : [...REQUIRED, ...(options.write ? REQUIRED_FOR_WRITE : [])];
  const absent = required.filter((key) => !values[key]);
  if (absent.length > 0) {
    const missing = absent.map(envVariableOf);
    const why = ownForm
      ? absent.includes('workspaceId')
        ? ` (--own-form makes its form in ${envVariableOf('workspaceId')})`
        : ''
      : options.write
        ? ` (--write needs ${envVariableOf('submissionId')}, or --own-form to answer a form of the run's own)`
        : '';
    return {
      ok: false,
      error: configError(
        `the live target needs ${missing.join(', ')}${why}: set ${missing.length > 1 ? 'them' : 'it'} in the environment or in the --config file (keys: ${absent.join(', ')})`,
        missing,
      ),
    };
  }
  const invalid: string[] = [];
  for (const [key, value] of Object.entries(values) as Array<[SettingKey, string]>) {
    const type = SETTINGS[key];
    const env = envVariableOf(key);
    if (type === 'id' && !/^[1-9][0-9]{0,15}$/.test(value)) invalid.push(`${env} must be a positive integer id`);
    if (type === 'port' && !/^[0-9]{1,5}$/.test(value)) invalid.push(`${env} must be a port number`);
    if (type === 'url' && !/^https?:\/\/[^\s]+$/.test(value)) invalid.push(`${env} must be an http(s) URL`);
  }
  for (const key of Object.keys(TOKEN_ROLES) as TokenName[]) {
    const value = values[key];
    // A token pasted from a header ("Bearer 1|abc…") was sent as "Bearer Bearer …": say so, never show it.
    if (value !== undefined && /^bearer\s/i.test(value))
      invalid.push(`${envVariableOf(key)} starts with "Bearer ": set the token alone (the suite adds the scheme)`);
    else if (value !== undefined && /\s/.test(value))
      invalid.push(`${envVariableOf(key)} holds white space (a line break pasted with it?): set the token alone`);
  }
  if (invalid.length > 0) return { ok: false, error: configError(invalid.join('; ')) };
  return { ok: true, value: values };
}

/** `https://tunnel.example/hook?x=1` + `/abc` -> `https://tunnel.example/hook/abc?x=1`. */
function withPath(url: string, path: string): string {
  const u = new URL(url);
  u.pathname = `${u.pathname.replace(/\/+$/, '')}${path}`;
  return u.toString();
}

const num = (value: string | undefined): number | undefined => (value === undefined ? undefined : Number(value));

/** A live target from validated settings. Nothing is started: the tenant is already there. */
export function liveTarget(
  settings: LiveSettings,
  options: {
    write: boolean;
    /** With write: the write checks act on a form the run makes (--own-form). */
    ownForm?: boolean;
    destructive?: boolean;
    proxyPass: boolean;
    name?: string;
    pacer?: RequestPacer;
  },
): Target {
  const tokens = Object.fromEntries(
    (Object.keys(TOKEN_ROLES) as TokenName[]).flatMap((name) => {
      const value = settings[name];
      return value ? [[name, value]] : [];
    }),
  ) as unknown as TargetTokens;
  const receiverUrl = settings.webhookReceiverUrl;
  // A free port unless the settings name one (the port a tunnel forwards to).
  const port = settings.webhookReceiverPort;
  const hooks = receiverUrl
    ? targetReceiver(port ? Number(port) : 0, port ? envVariableOf('webhookReceiverPort') : undefined)
    : undefined;
  const ids = Object.fromEntries(
    Object.entries({
      workspaceId: num(settings.workspaceId),
      formId: num(settings.formId),
      formSlug: settings.formSlug,
      submissionId: num(settings.submissionId),
      integrationId: num(settings.integrationId),
      freeFormId: num(settings.freeFormId),
      captchaFormId: num(settings.captchaFormId),
      foreignFormId: num(settings.foreignFormId),
      foreignWorkspaceId: num(settings.foreignWorkspaceId),
      memberEmail: settings.memberEmail,
    }).filter(([, v]) => v !== undefined),
  ) as unknown as Target['ids'];
  return {
    name: options.name ?? 'live',
    kind: 'live',
    baseUrl: settings.baseUrl!.replace(/\/+$/, ''),
    tokens,
    ids,
    write: options.write,
    destructive: options.write && options.destructive === true,
    ...(options.write && options.ownForm ? { ownForm: true } : {}),
    // The receiver URL is public (a tunnel) and forwards every path to the suite's receiver.
    ...(receiverUrl && hooks
      ? { webhooks: { receiver: hooks.receiver, receiverUrl: (_port, path) => withPath(receiverUrl, path) } }
      : {}),
    proxyPass: options.proxyPass,
    ...(options.pacer ? { pacer: options.pacer } : {}),
    secrets: tokenSecrets(tokens),
    stop: async () => {
      await hooks?.close();
    },
  };
}
