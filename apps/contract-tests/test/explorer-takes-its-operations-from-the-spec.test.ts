// The explorer's operations come from the spec, not from a list in its code: a GET operation added
// to a copy of the bundle (a form's widgets, paginated, forms-read) gets the query and auth
// explorations with no change to the explorer, and an operation with no query parameters, a public
// one or one whose path the target cannot fill (a signed file) gets none of the list exploration.
import { describe, expect, it } from 'vitest';
import { exploreSuite } from '../src/explore/explore.js';
import { loadSpec, type SpecArtifacts } from '../src/spec.js';

const spec = loadSpec();
const options = { seed: 1, budget: 200, timeLimitMs: 1_000 };

/** The check names the explorer generates, per operation. */
const checksOf = (artifacts: SpecArtifacts): Map<string, string[]> =>
  new Map(exploreSuite(artifacts, options).map((suite) => [suite.operationId, suite.checks.map((c) => c.name)]));

/** A copy of the spec with one more operation: `GET /open/forms/{form}/widgets?page=`. */
function withWidgets(): SpecArtifacts {
  const bundle = structuredClone(spec.bundle);
  bundle.paths['/open/forms/{form}/widgets'] = {
    get: {
      operationId: 'listFormWidgets',
      security: [{ personalAccessToken: ['forms-read'] }],
      parameters: [{ $ref: '#/components/parameters/FormRef' }, { $ref: '#/components/parameters/Page' }],
      responses: {
        '200': {
          description: 'The widgets of the form.',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
        '401': { description: 'No token.' },
      },
    },
  };
  return { ...spec, bundle };
}

describe('the explorer takes its operations from the spec', () => {
  it('explores an operation added to the spec: its query parameters and its auth', () => {
    expect(checksOf(spec).has('listFormWidgets')).toBe(false);
    expect(checksOf(withWidgets()).get('listFormWidgets')).toEqual(
      expect.arrayContaining([
        'explore: generated query parameters',
        'explore: no token, a wrong token, a forged token, a token lacking the ability',
      ]),
    );
  });

  it('explores the query parameters of each list a target can address, and nothing public or signed', () => {
    const queried = [...checksOf(spec)]
      .filter(([, names]) => names.includes('explore: generated query parameters'))
      .map(([id]) => id);
    expect(queried.sort()).toEqual(['listFormSubmissions', 'listWorkspaceForms']);
  });

  it("follows the links of each operation whose 200 links lead to a delete, and the others' read-back", () => {
    const checks = checksOf(spec);
    expect(checks.get('createFormIntegration')).toContain(
      'explore: create, follow its links, delete it, then each link answers 404',
    );
    expect(checks.get('updateFormSubmission')).toContain('explore: an updated submission reads back as updated');
  });
});
