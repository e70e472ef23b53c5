// @forms-api/client/redact: the toolkit's one redactor, for your own logs and reports (the
// contract suite and the sandbox redact with it too). Apart from the root, which holds the
// client, its errors, the pacer and the types.
export {
  createRedactor,
  redactDeep,
  REDACTED,
  withoutQuerySecrets,
  type Redact,
  type RedactOptions,
} from './redact.js';
