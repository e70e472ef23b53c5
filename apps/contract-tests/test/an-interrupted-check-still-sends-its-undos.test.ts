// Ctrl-C lets the current check finish and clean up (README: `--write` and cleanup): its undos must
// still reach the tenant. They were refused as "interrupted" like the check's own requests, so a
// temporary integration stayed and the run asked for it to be removed by hand.
import { describe, expect, it } from 'vitest';
import { CheckContext } from '../src/check-context.js';
import { runInContext } from '../src/runner.js';
import { loadSpec } from '../src/spec.js';
import { createTemporaryIntegration, integrationBody } from '../src/suites/helpers.js';
import { startSandboxTarget } from '../src/targets/sandbox.js';

describe('an interrupted check', () => {
  it('still sends the undos it registered', async () => {
    const target = await startSandboxTarget({ expectsDrift: 'none', proxyPass: false });
    try {
      const listed = async () => {
        const answer = await fetch(`${target.baseUrl}/open/forms/${target.ids.formId}/integrations`, {
          headers: { authorization: `Bearer ${target.tokens.token}`, accept: 'application/json' },
        });
        return ((await answer.json()) as Array<{ id: number }>).map((i) => i.id);
      };
      const before = await listed();
      const controller = new AbortController();
      const ctx = new CheckContext(target, loadSpec(), controller.signal);
      let made: number | undefined;
      await runInContext(ctx, async () => {
        made = (await createTemporaryIntegration(ctx, integrationBody())).id;
        controller.abort(); // Ctrl-C while the check runs
      });
      expect(made).toBeDefined();
      expect(ctx.failures).toEqual([]);
      expect(await listed()).toEqual(before);
    } finally {
      await target.stop();
    }
  });
});
