// Every operation that needs a token documents 403 with the shared error schema, so clients can
// rely on one error shape for missing abilities.
export default function forbiddenWithSharedError(operation) {
  if (!operation || typeof operation !== 'object') return [];
  if (Array.isArray(operation.security) && operation.security.length === 0) return [];
  const forbidden = operation.responses?.['403'];
  if (!forbidden) return [{ message: 'A secured operation must document a 403 response.', path: ['responses'] }];
  const schema = forbidden.content?.['application/json']?.schema;
  if (!schema || schema.title !== 'Error' || !Array.isArray(schema.required) || !schema.required.includes('message')) {
    return [
      {
        message: 'The 403 response must use the shared Error schema (components/schemas/error.yaml).',
        path: ['responses', '403'],
      },
    ];
  }
  return [];
}
