// A lost webhook delivery cannot be found in the integration's events (they name no submission) nor
// sent again (nothing resends): no guide or README says so, and the guide says what works: the
// inbox's reconciler, or by hand a walk of the form's submissions with the client's pagination,
// skipping ids already stored.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appDir } from '../src/build.ts';

const repoDir = join(appDir, '..', '..');

/** Every README of the repository and every guide. */
function documents(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (['node_modules', 'dist', '.git', '.turbo'].includes(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name === 'README.md' || (dir.endsWith(join('docs', 'guides')) && entry.name.endsWith('.md')))
        found.push(path);
    }
  };
  walk(repoDir);
  return found;
}

describe('advice for a lost delivery', () => {
  it('never tells a reader to find a delivery in the events or to resubmit or resend it', () => {
    const docs = documents();
    expect(docs.length).toBeGreaterThan(10);
    for (const file of docs) {
      const text = readFileSync(file, 'utf8').replace(/\s+/g, ' ');
      expect(text, relative(repoDir, file)).not.toMatch(/resubmit|find (it|them|the delivery) in the [^.]*events/i);
    }
  });

  it("says what a reader can do: run the inbox's reconciler, or walk the submissions with iterate() and skip ids already stored", () => {
    const guide = readFileSync(join(appDir, 'guides/05-never-lose-a-submission.md'), 'utf8').replace(
      /[ \n]+(?=[a-z])/g,
      ' ',
    );
    /** A section from its heading to the next one. */
    const section = (heading: string) => {
      const start = guide.indexOf(`\n${heading}`);
      expect(start, heading).toBeGreaterThan(0);
      return guide.slice(start, guide.indexOf('\n## ', start + 1));
    };
    expect(section('## Why a webhook alone cannot keep it')).toContain(
      'they name no submission, and no operation of the API sends a delivery again',
    );
    expect(section('## 2. The whole setup: receiver, worker, reconciler')).toContain('await createReconciler({');
    expect(section('## 6. Recover a lost delivery: the reconciler')).toContain('queues each one that nobody claimed');
    const catchUp = section('## 9. Catch up after a long outage');
    expect(catchUp).toContain('forms-webhook-inbox reconcile --form 11 --since 2d');
    expect(catchUp).toContain('forms.submissions.iterate(');
    expect(catchUp).toContain('if (stored.has(submission.id)) continue;');
  });
});
