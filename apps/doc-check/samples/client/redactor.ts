// #region redactor
import { createRedactor, withoutQuerySecrets } from '@forms-api/client/redact';

const redact = createRedactor([process.env.FORMS_API_TOKEN!]);
console.log(redact(`upstream said: Bearer ${process.env.FORMS_API_TOKEN}`)); // upstream said: Bearer [REDACTED]
console.log(withoutQuerySecrets('https://example.com/cb?code=abc&page=2')); // https://example.com/cb?code=[REDACTED]&page=2
// #endregion
