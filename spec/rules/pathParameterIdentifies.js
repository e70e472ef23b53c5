// Every path parameter says what it names with `x-identifies` (form, workspace, submission,
// integration, file, …): the contract suite and the explorer fill path parameters from the
// resources a target names by that word, so a new operation is addressable without code.
export default function pathParameterIdentifies(pathItem) {
  if (!pathItem || typeof pathItem !== 'object') return [];
  const results = [];
  const check = (parameters, at) =>
    (Array.isArray(parameters) ? parameters : []).forEach((p, index) => {
      if (p?.in === 'path' && (typeof p['x-identifies'] !== 'string' || !/^[a-z][a-z-]*$/.test(p['x-identifies'])))
        results.push({
          message: `Path parameter \`${p.name}\` must say what it names with \`x-identifies\` (a lower-case word such as form).`,
          path: [...at, 'parameters', index],
        });
    });
  check(pathItem.parameters, []);
  for (const method of ['get', 'put', 'post', 'patch', 'delete']) check(pathItem[method]?.parameters, [method]);
  return results;
}
