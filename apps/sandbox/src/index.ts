// The sandbox's programmatic entry point: startSandbox() serves a fresh tenant on 127.0.0.1 and
// returns its address, tokens and seed ids; close() stops it. The behaviour profile and the fault
// switches are resolved here into the rules the application takes and the behaviours applied
// around it and its webhook transport (src/behaviour/).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { keysOf, refuseUnknownOptions } from '@forms-api/internal/option-names';
import { createSpecValidator } from '@forms-api/spec/validator';
import { SERVICE_WEBHOOK_TIMEOUT_MS } from '@forms-api/webhook-verify';
import type { Ability } from '@forms-api/types';
import { createApp } from './app.js';
import { clientAddress } from './client-address.js';
import { checkedAllowedHosts, hostAllowed } from './host-check.js';
import type { Behaviour, SandboxView } from './behaviour/behaviour.js';
import { FAULT_CATALOGUE, SANDBOX_FAULTS, type SandboxFault } from './behaviour/faults.js';
import { behaviourAroundHandler, behaviourAroundTransport } from './behaviour/layer.js';
import { BEHAVIOUR_PROFILES, SANDBOX_BEHAVIOURS, type SandboxBehaviour } from './behaviour/profiles.js';
import type { SandboxContext } from './context.js';
import { createDispatcher } from './dispatch/dispatcher.js';
import { createTransport } from './dispatch/transport.js';
import { createFileSigner } from './files.js';
import { TOKEN_NAMES, type SandboxTokens, type SeedFixture, type TokenName } from './model.js';
import { SERVICE_RATE_LIMIT, type RateLimitOptions } from './ratelimit.js';
import { SandboxError } from './errors.js';
import { rulesWith } from './rules.js';
import { defaultSeed } from './seed/default-seed.js';
import { createStorage } from './storage.js';
import { SandboxStore } from './store/store.js';

export * from './behaviour/public.js';
// The one SSRF guard (https, no credentials, only public addresses, pinned): the contract suite judges a tenant's redirects with it.
export { checkWebhookUrl, isPublicAddress, type WebhookDestination } from './dispatch/webhook-url.js';
export { defaultSeed };
export { SandboxError, isSandboxError, type SandboxErrorContext, type SandboxErrorKind } from './errors.js';
export type { RateLimitOptions, SandboxTokens, SeedFixture, TokenName };

/** How long a file URL in a webhook payload is valid: the service's default for external links. */
const WEBHOOK_FILE_URL_LIFETIME_S = 24 * 60 * 60;

export interface SandboxOptions {
  /**
   * `contract` (default): the published contract, and the spec where it is silent. `observed`: the
   * service's code, known drift included (spec/drift.yaml; the README lists each behaviour).
   */
  behaviour?: SandboxBehaviour;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /**
   * The URL clients reach the sandbox at, when not http://host:port (behind a proxy). Every URL the
   * sandbox writes (pagination links, signed file URLs, webhook payloads) starts with it.
   */
  publicUrl?: string;
  /**
   * Host names, beside its IP addresses, `localhost`, the publicUrl's and the listening host's, that
   * requests may name in `Host`; any other is refused with 403, so a web page that rebinds its own
   * name to this machine cannot reach the sandbox.
   */
  allowedHosts?: readonly string[];
  /** Allow http and private or loopback webhook receivers (local development and tests). */
  allowPrivateWebhooks?: boolean;
  /** A fixture object, or the path of a JSON fixture file. Default: the built-in seed. */
  seed?: SeedFixture | string;
  /**
   * Keep the built-in seed's published tokens (the README's table). By default each start gives
   * them new secrets (same ids and names), so a page or process that read the README cannot use
   * them. A fixture's own tokens are always kept.
   */
  fixedTokens?: boolean;
  webhookTimeoutMs?: number;
  /** Default: the service's shared bucket (the spec's, 100 requests per minute per user); false turns it off. */
  rateLimit?: RateLimitOptions | false;
  /**
   * How many reverse proxies in front of the sandbox append to X-Forwarded-For; only their entries
   * are believed when the public endpoint's rate limit picks the client address. Default 0.
   */
  trustedProxies?: number;
  /**
   * The token `POST /__sandbox/reset` requires: at least 16 visible ASCII characters (an empty or
   * short one is refused, never taken to mean "no token"). Default: a random one per start (see
   * SandboxHandle.adminToken).
   */
  adminToken?: string;
  /** Fault switches for the contract suite's self-test (FAULT_CATALOGUE); they apply on top of either behaviour. */
  faults?: readonly SandboxFault[];
  log?: (line: string) => void;
  /** Clock, for tests (signed URL expiry, timestamps). */
  now?: () => number;
}

export interface SandboxHandle {
  /** The behaviour it was started with. */
  behaviour: SandboxBehaviour;
  /** Where clients reach the sandbox: the publicUrl option, or where it listens. */
  baseUrl: string;
  /** Where the server listens (http://host:port); differs from baseUrl only behind a proxy. */
  listenUrl: string;
  /** The credential of the sandbox's own administration (`POST /__sandbox/reset`), not a tenant token. */
  adminToken: string;
  tokens: SandboxTokens;
  workspaces: Array<{
    id: number;
    name: string;
    plan: 'pro' | 'free';
    forms: Array<{
      id: number;
      slug: string;
      title: string;
      /** Protected by a captcha (answers and, in `observed`, updates need its token). */ captcha: boolean;
    }>;
  }>;
  reset(): void;
  close(): Promise<void>;
}

/**
 * The seed fixture a `seed` option names: the built-in seed, the object itself, or the JSON file at
 * that path. Throws a SandboxError (`unreadable_seed`, `invalid_seed`) saying what to fix: a bad
 * seed is a mistake in the caller's setup, like a bad option, not an outcome to branch on.
 */
export function loadSeed(seed: SeedFixture | string | undefined): SeedFixture {
  if (seed === undefined) return defaultSeed();
  let fixture: unknown = seed;
  if (typeof seed === 'string') {
    try {
      fixture = JSON.parse(readFileSync(seed, 'utf8'));
    } catch (error) {
      throw new SandboxError(
        'unreadable_seed',
        `Could not read the seed fixture ${seed}: ${(error as Error).message}. Pass the path of a JSON fixture (see the README's seed section).`,
        { context: { path: seed }, cause: error },
      );
    }
  }
  const f = fixture as Partial<SeedFixture>;
  const missing = (['workspaces', 'users', 'tokens', 'forms', 'submissions'] as const).filter(
    (k) => !Array.isArray(f?.[k]),
  );
  if (missing.length > 0)
    throw new SandboxError(
      'invalid_seed',
      `The seed fixture needs arrays ${missing.join(', ')} (see the default seed in the README).`,
      { context: { missing } },
    );
  const names = new Set(f.tokens!.map((t) => t.name));
  const absent = TOKEN_NAMES.filter((n) => !names.has(n));
  if (absent.length > 0)
    throw new SandboxError('invalid_seed', `The seed fixture must define the tokens ${absent.join(', ')}.`, {
      context: { absent },
    });
  return f as SeedFixture;
}

const TOKEN_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** The seed with a new 40-character secret for each token, as Sanctum's `<id>|<secret>`. */
function withNewTokenSecrets(seed: SeedFixture): SeedFixture {
  const secret = () => Array.from(randomBytes(40), (b) => TOKEN_ALPHABET[b % TOKEN_ALPHABET.length]).join('');
  return { ...seed, tokens: seed.tokens.map((t) => ({ ...t, token: `${t.token.split('|')[0]}|${secret()}` })) };
}

function faultBehaviours(names: readonly string[]): Behaviour[] {
  const unknown = names.filter((f) => !(SANDBOX_FAULTS as readonly string[]).includes(f));
  if (unknown.length > 0)
    throw new SandboxError(
      'unknown_fault',
      `Unknown sandbox fault(s): ${unknown.join(', ')}. Known: ${SANDBOX_FAULTS.join(', ')}.`,
      { context: { unknown } },
    );
  return names.map((name) => FAULT_CATALOGUE[name as SandboxFault]);
}

function profileBehaviours(name: string): readonly Behaviour[] {
  if (!(SANDBOX_BEHAVIOURS as readonly string[]).includes(name))
    throw new SandboxError(
      'unknown_behaviour',
      `Unknown sandbox behaviour ${name}. Known: ${SANDBOX_BEHAVIOURS.join(', ')}.`,
      { context: { behaviour: name } },
    );
  return BEHAVIOUR_PROFILES[name as SandboxBehaviour];
}

/** The publicUrl option without its trailing slashes, or a SandboxError; undefined when not given. */
function checkedPublicUrl(publicUrl: string | undefined): string | undefined {
  if (publicUrl === undefined) return undefined;
  if (!URL.canParse(publicUrl) || !/^https?:$/.test(new URL(publicUrl).protocol)) {
    throw new SandboxError(
      'invalid_option',
      `publicUrl must be an absolute http(s) URL such as https://sandbox.example.test (got ${publicUrl}).`,
      { context: { option: 'publicUrl', publicUrl } },
    );
  }
  return publicUrl.replace(/\/+$/, '');
}

/** The port option (0, the default, picks a free one). */
function checkedPort(port: number | undefined): number {
  if (port === undefined) return 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new SandboxError(
      'invalid_option',
      `port must be a whole number from 0 to 65535, 0 for a free one (got ${port}).`,
      { context: { option: 'port', port } },
    );
  return port;
}

/** What to do when listen() fails, by its error code. */
const LISTEN_HINTS: Readonly<Record<string, string>> = {
  EADDRINUSE: 'the port is taken; choose another port, or 0 for a free one',
  EADDRNOTAVAIL: 'the host is not an address of this machine; use 127.0.0.1, or 0.0.0.0 for every interface',
  EACCES: 'this user may not listen on that port; choose a port above 1023',
};

const ADMIN_TOKEN_MIN_LENGTH = 16;

/** The adminToken option, or a random one; an empty, short or unsendable token is refused (it would open the reset to anyone who guesses it). */
function checkedAdminToken(adminToken: string | undefined): string {
  if (adminToken === undefined) return `sandbox_admin_${randomBytes(24).toString('base64url')}`;
  if (
    typeof adminToken !== 'string' ||
    adminToken.length < ADMIN_TOKEN_MIN_LENGTH ||
    !/^[\x21-\x7e]+$/.test(adminToken)
  ) {
    // The token itself is never echoed: only its length.
    throw new SandboxError(
      'invalid_option',
      `adminToken must be at least ${ADMIN_TOKEN_MIN_LENGTH} visible ASCII characters without spaces (got ${typeof adminToken === 'string' ? `${adminToken.length} characters` : typeof adminToken}); leave it out for a random one.`,
      { context: { option: 'adminToken', length: typeof adminToken === 'string' ? adminToken.length : null } },
    );
  }
  return adminToken;
}

const SANDBOX_OPTION_NAMES = keysOf<SandboxOptions>({
  behaviour: true,
  port: true,
  host: true,
  publicUrl: true,
  allowedHosts: true,
  allowPrivateWebhooks: true,
  seed: true,
  fixedTokens: true,
  webhookTimeoutMs: true,
  rateLimit: true,
  trustedProxies: true,
  adminToken: true,
  faults: true,
  log: true,
  now: true,
});

export async function startSandbox(options: SandboxOptions = {}): Promise<SandboxHandle> {
  if (options === null || typeof options !== 'object')
    throw new SandboxError('invalid_option', 'startSandbox takes an options object, or nothing.', {
      context: { option: 'options' },
    });
  // A misspelt option (`ratelimit`) would leave its default in place unseen.
  refuseUnknownOptions(SandboxError, options, SANDBOX_OPTION_NAMES, 'startSandbox');
  const behaviourName = options.behaviour ?? 'contract';
  // Faults first: they change what the profile answers, and the profile then encodes the answer.
  const behaviours = [...faultBehaviours(options.faults ?? []), ...profileBehaviours(behaviourName)];
  const rules = rulesWith(behaviours.map((b) => b.rules));
  const trustedProxies = options.trustedProxies ?? 0;
  if (!Number.isInteger(trustedProxies) || trustedProxies < 0)
    throw new SandboxError(
      'invalid_option',
      `trustedProxies must be a whole number of proxies, 0 or more (got ${trustedProxies}).`,
      { context: { option: 'trustedProxies', trustedProxies } },
    );
  // Every option is judged before the port is opened: a refused option leaves nothing listening.
  const publicUrl = checkedPublicUrl(options.publicUrl);
  const listenPort = checkedPort(options.port);
  const adminToken = checkedAdminToken(options.adminToken);
  const host = options.host ?? '127.0.0.1';
  const allowedHosts = [
    ...checkedAllowedHosts(options.allowedHosts),
    host,
    ...(publicUrl ? [new URL(publicUrl).hostname] : []),
  ];
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => {});
  const seed =
    options.seed === undefined && !options.fixedTokens
      ? withNewTokenSecrets(loadSeed(undefined))
      : loadSeed(options.seed);
  const store = new SandboxStore(seed, rules.search.textOf);
  const bundle = createRequire(import.meta.url)('@forms-api/spec/openapi.json');
  const webhookUrls = { allowPrivate: options.allowPrivateWebhooks ?? false };
  const timeoutMs = options.webhookTimeoutMs ?? SERVICE_WEBHOOK_TIMEOUT_MS;
  const transport = behaviourAroundTransport(
    createTransport({ ...webhookUrls, timeoutMs, answerBytes: rules.webhooks.answerBytes }),
    behaviours,
  );
  const files = createFileSigner(now);
  const ctx: SandboxContext = {
    bundle,
    store,
    validator: createSpecValidator(bundle),
    rules,
    files,
    storage: createStorage(now),
    dispatcher: createDispatcher({
      store,
      transport,
      rules: rules.webhooks,
      fileUrl: (formId, name) => files.url(ctx.baseUrl, formId, name, WEBHOOK_FILE_URL_LIFETIME_S),
      now,
      log,
    }),
    webhookUrls,
    clientAddress: (c) => clientAddress(c, trustedProxies),
    // Known once the server listens (below), before the first request is served.
    baseUrl: '',
    now,
  };
  const app = createApp(ctx, {
    rateLimit: options.rateLimit ?? SERVICE_RATE_LIMIT,
    trustedProxies,
    adminToken,
    hostAllowed: hostAllowed(allowedHosts),
    log,
  });
  // The store's memberships as they are now, not the seed's: a member added or removed during a run counts.
  const membersOf = (form: string): Set<number> =>
    membersOfWorkspace((/^\d+$/.test(form) ? store.forms.get(Number(form)) : store.formBySlug(form))?.workspaceId);
  const membersOfWorkspace = (workspaceId: number | undefined): Set<number> =>
    new Set(workspaceId === undefined ? [] : store.membersOf(workspaceId).map((m) => m.user.id));
  const tokenOfMember = (members: Set<number>, abilities: readonly Ability[]) =>
    [...store.tokens.values()].find((t) => members.has(t.userId) && abilities.every((a) => t.abilities.includes(a)))
      ?.token;
  const view: SandboxView = {
    tokenOfSameUserWith: (token, abilities) => store.tokenOfSameUserWith(token, abilities)?.token,
    tokenWithId: (id) => [...store.tokens.keys()].find((token) => token.split('|', 1)[0] === id),
    userOf: (token) => store.tokens.get(token)?.userId,
    roleIn: (userId, workspaceId) =>
      store.users.get(userId)?.memberships.find((m) => m.workspaceId === workspaceId)?.role,
    tokenHolds: (token, abilities) => {
      const held = store.tokens.get(token)?.abilities;
      return held !== undefined && abilities.every((a) => held.includes(a));
    },
    formOfSubmission: (id) => [...store.forms.keys()].find((formId) => store.submission(formId, id)),
    formOfIntegration: (id) => store.integrations.get(id)?.formId,
    reaches: (token, form) => membersOf(form).has(store.tokens.get(token)?.userId ?? -1),
    tokenReaching: (form, abilities) => tokenOfMember(membersOf(form), abilities),
    siblingForm: (form) => {
      const own = /^\d+$/.test(form) ? store.forms.get(Number(form)) : store.formBySlug(form);
      return [...store.forms.values()].find((f) => own && f.workspaceId === own.workspaceId && f.id !== own.id)?.id;
    },
    tokenInWorkspace: (workspaceId, abilities) => tokenOfMember(membersOfWorkspace(workspaceId), abilities),
    siblingFormWithIntegrations: (form) => {
      const own = /^\d+$/.test(form) ? store.forms.get(Number(form)) : store.formBySlug(form);
      return [...store.forms.values()].find(
        (f) => own && f.workspaceId === own.workspaceId && f.id !== own.id && store.integrationsOf(f.id).length > 0,
      )?.id;
    },
  };
  const fetch = behaviourAroundHandler(app.fetch, behaviours, view);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch, port: listenPort, hostname: host }, () => resolve(s));
    s.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        new SandboxError(
          'listen_failed',
          `The sandbox could not listen on ${host} port ${listenPort} (${error.code ?? error.message}): ${LISTEN_HINTS[error.code ?? ''] ?? 'check the host and port options'}.`,
          { context: { host, port: listenPort, ...(error.code ? { code: error.code } : {}) }, cause: error },
        ),
      );
    });
  });
  // Kept-alive connections stay open a minute, as a load balancer in front of the service would
  // keep them (Node's default is 5 s): a client whose idle timer fires late on a loaded machine
  // would otherwise send on a socket the sandbox had just closed, and a POST gets no answer.
  (server as HttpServer).keepAliveTimeout = 65_000;
  const { port } = server.address() as AddressInfo;
  const listenUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  ctx.baseUrl = publicUrl ?? listenUrl;
  const tokens = Object.fromEntries(seed.tokens.map((t) => [t.name, t.token])) as SandboxTokens;
  return {
    behaviour: behaviourName as SandboxBehaviour,
    baseUrl: ctx.baseUrl,
    listenUrl,
    adminToken,
    tokens,
    workspaces: seed.workspaces.map((w) => ({
      id: w.id,
      name: w.name,
      plan: w.plan,
      forms: seed.forms
        .filter((f) => f.workspaceId === w.id)
        .map((f) => ({ id: f.id, slug: f.slug, title: f.title, captcha: Boolean(f.captchaProvider) })),
    })),
    reset: () => store.reset(),
    close: () =>
      ctx.dispatcher.drain().then(
        () =>
          new Promise<void>((resolve, reject) => {
            server.close((error) => (error ? reject(error) : resolve()));
            (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      ),
  };
}
