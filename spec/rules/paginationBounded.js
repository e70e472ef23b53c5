// A paginated list (one with a `page` parameter) bounds its page size: `per_page` with a
// minimum of 1, a maximum of at most 100 and a default.
const MAX_PAGE_SIZE = 100;

export default function paginationBounded(operation) {
  if (!operation || typeof operation !== 'object') return [];
  const parameters = Array.isArray(operation.parameters) ? operation.parameters : [];
  const isPaginated = parameters.some((p) => p?.in === 'query' && p?.name === 'page');
  if (!isPaginated) return [];
  const index = parameters.findIndex((p) => p?.in === 'query' && p?.name === 'per_page');
  if (index === -1)
    return [{ message: 'A paginated list must declare a `per_page` query parameter.', path: ['parameters'] }];
  const schema = parameters[index].schema ?? {};
  const problems = [];
  if (schema.minimum !== 1) problems.push('minimum 1');
  if (typeof schema.maximum !== 'number' || schema.maximum > MAX_PAGE_SIZE)
    problems.push(`a maximum of at most ${MAX_PAGE_SIZE}`);
  if (schema.default === undefined) problems.push('a default');
  return problems.length === 0
    ? []
    : [{ message: `\`per_page\` must have ${problems.join(', ')}.`, path: ['parameters', index, 'schema'] }];
}
