// The `prism` target: `prism mock` on the bundled spec, on a free loopback port. Also starts
// `prism proxy --errors` in front of a live target, for a second opinion on its responses.
import type { SpecArtifacts } from '../spec.js';
import { freePort, prismBin, startProcess, waitUntilAnswering } from './process.js';
import { tokenSecrets, type Target, type TargetIds } from './target.js';

/** Ids of the spec's examples, so Prism's example responses line up with the requests. */
export const MOCK_IDS: TargetIds = {
  workspaceId: 1,
  formId: 42,
  formSlug: 'customer-feedback-x1y2z3',
  submissionId: 615432,
  integrationId: 7,
};
/** Prism only checks that a bearer token is present; any value does. */
const MOCK_TOKEN = 'prism-mock-token';

export interface PrismServer {
  readonly baseUrl: string;
  stop(): Promise<void>;
}

async function startPrism(mode: 'mock' | 'proxy', spec: SpecArtifacts, extra: string[]): Promise<PrismServer> {
  const port = await freePort();
  const args = [prismBin(), mode, spec.yamlPath, ...extra, '-h', '127.0.0.1', '-p', String(port)];
  const proc = startProcess(process.execPath, args, `prism ${mode}`);
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(`${baseUrl}/`, proc, `prism ${mode}`);
  return { baseUrl, stop: () => proc.stop() };
}

/** `prism mock` with static examples (no `-d`): responses are the spec's own examples. */
export function startPrismMock(spec: SpecArtifacts): Promise<PrismServer> {
  return startPrism('mock', spec, []);
}

/** `prism proxy <upstream> --errors`: forwards, and turns request/response violations into errors. */
export function startPrismProxy(spec: SpecArtifacts, upstream: string): Promise<PrismServer> {
  return startPrism('proxy', spec, [upstream, '--errors']);
}

/** A mock target at `baseUrl` (Prism itself, or a proxy in front of it in the self-test). */
export function mockTarget(name: string, baseUrl: string, stop: () => Promise<void>): Target {
  const tokens = { token: MOCK_TOKEN };
  return {
    name,
    kind: 'mock',
    baseUrl,
    tokens,
    ids: MOCK_IDS,
    write: true,
    proxyPass: false,
    secrets: tokenSecrets(tokens),
    stop,
  };
}

export async function startPrismTarget(spec: SpecArtifacts): Promise<Target> {
  const prism = await startPrismMock(spec);
  return mockTarget('prism', prism.baseUrl, () => prism.stop());
}
