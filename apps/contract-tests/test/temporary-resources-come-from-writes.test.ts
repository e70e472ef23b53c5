// A write's happy path runs on a temporary resource the run made, never on the user's own data:
// the maker is a write whose answer names the new id (a list's first item is someone's real
// invitation or member), and an unknown id is expected as the spec says it is answered.
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../src/spec.js';
import { operationsOf, provenanceOf } from '../src/operations.js';
import { suitesFor } from '../src/suites/index.js';

const spec = loadSpec();
const operations = operationsOf(spec.bundle);

describe('temporary resources', () => {
  it('are made by writes only: no list is taken for a maker', () => {
    const makers = [...operations.values()].flatMap((op) =>
      op.parameters
        .filter((p) => p.in === 'path')
        .flatMap((p) => {
          const provenance = provenanceOf(operations, op, p);
          return provenance
            ? [`${op.operationId}.${p.name} <- ${provenance.creator.method} ${provenance.creator.operationId}`]
            : [];
        }),
    );
    expect(makers.filter((m) => m.includes('<- GET '))).toEqual([]);
    // The invitations a run resends or cancels are the ones it sent.
    expect(makers).toContain('cancelWorkspaceInvite.inviteId <- POST addWorkspaceUser');
    expect(makers).toContain('resendWorkspaceInvite.inviteId <- POST addWorkspaceUser');
  });

  it('are never taken from a list: without the invitation links, nothing makes an invitation', () => {
    const bundle = structuredClone(spec.bundle) as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { links?: Record<string, { operationId: string }> }> }>
      >;
    };
    const added = bundle.paths['/open/workspaces/{workspaceId}/users/add']!.post!.responses['200']!;
    added.links = Object.fromEntries(
      Object.entries(added.links ?? {}).filter(([, link]) => !link.operationId.endsWith('WorkspaceInvite')),
    );
    const copy = operationsOf(bundle);
    const cancel = copy.get('cancelWorkspaceInvite')!;
    // listWorkspaceInvites still links to its first item: that is someone's real invitation.
    expect(
      provenanceOf(
        copy,
        cancel,
        cancel.parameters.find((p) => p.name === 'inviteId')!,
      ),
    ).toBeUndefined();
  });

  it('expect an unknown invitation to be answered 400, as the spec says, and other unknown ids 404', () => {
    const names = suitesFor(spec.bundle).flatMap((s) =>
      s.checks.filter((c) => /^unknown \S+: \d{3}$/.test(c.name)).map((c) => `${s.operationId}: ${c.name}`),
    );
    expect(names).toContain('cancelWorkspaceInvite: unknown invite: 400');
    expect(names).toContain('resendWorkspaceInvite: unknown invite: 400');
    expect(names.filter((n) => !n.endsWith(': 404') && !n.includes('invite: 400'))).toEqual([]);
  });
});
