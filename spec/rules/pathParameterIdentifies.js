// Every path parameter says what it names with `x-identifies` (form, workspace, submission,
// integration, file, …): the contract suite and the explorer fill path parameters from the
// resources a target names by that word, so a new operation is addressable without code.
// A parameter whose unknown value the service answers with something other than 404 says so
// with `x-unknown-status`, and that status is documented by every operation that takes it.
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

export default function pathParameterIdentifies(pathItem) {
  if (!pathItem || typeof pathItem !== 'object') return [];
  const results = [];
  const check = (parameters, at, methods) =>
    (Array.isArray(parameters) ? parameters : []).forEach((p, index) => {
      if (p?.in !== 'path') return;
      if (typeof p['x-identifies'] !== 'string' || !/^[a-z][a-z-]*$/.test(p['x-identifies']))
        results.push({
          message: `Path parameter \`${p.name}\` must say what it names with \`x-identifies\` (a lower-case word such as form).`,
          path: [...at, 'parameters', index],
        });
      const unknown = p['x-unknown-status'];
      if (unknown === undefined) return;
      if (!Number.isInteger(unknown) || unknown < 400 || unknown > 499) {
        results.push({
          message: `\`x-unknown-status\` of \`${p.name}\` must be a 4xx status (what an unknown ${p['x-identifies'] ?? 'value'} is answered).`,
          path: [...at, 'parameters', index, 'x-unknown-status'],
        });
        return;
      }
      for (const method of methods)
        if (!pathItem[method]?.responses?.[String(unknown)])
          results.push({
            message: `${method.toUpperCase()} takes \`${p.name}\`, whose unknown value is answered ${unknown}, but does not document ${unknown}.`,
            path: [method, 'responses'],
          });
    });
  check(
    pathItem.parameters,
    [],
    METHODS.filter((m) => pathItem[m]),
  );
  for (const method of METHODS) check(pathItem[method]?.parameters, [method], [method]);
  return results;
}
