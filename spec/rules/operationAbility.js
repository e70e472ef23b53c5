// Every operation names the token ability it needs: a security requirement whose scopes list the
// ability, or an explicit `security: []` with `x-public: true` for the public endpoints.
export default function operationAbility(operation) {
  if (!operation || typeof operation !== 'object') return [];
  const security = operation.security;
  if (Array.isArray(security) && security.length === 0) {
    return operation['x-public'] === true
      ? []
      : [
          {
            message: 'An operation with `security: []` must say it is public with `x-public: true`.',
            path: ['security'],
          },
        ];
  }
  if (!Array.isArray(security)) {
    return [
      { message: 'The operation must declare its own `security` requirement naming the ability it needs.', path: [] },
    ];
  }
  const results = [];
  security.forEach((requirement, index) => {
    const scopes = Object.values(requirement ?? {});
    if (scopes.length === 0 || scopes.some((list) => !Array.isArray(list) || list.length === 0)) {
      results.push({
        message: 'Each security requirement must list the ability (scope) the token needs.',
        path: ['security', index],
      });
    }
  });
  if (typeof operation.description !== 'string' || !/\*\*Ability:\*\*/.test(operation.description)) {
    results.push({ message: 'The description must state the ability, as `**Ability:** ...`.', path: ['description'] });
  }
  return results;
}
