import type { ErrorObject } from 'ajv';

export interface ValidationResult {
  valid: boolean;
  errors: ErrorObject[];
}

export interface SpecValidator {
  readonly operations: Map<string, { path: string; method: string; operation: Record<string, unknown> }>;
  validateComponent(name: string, value: unknown): ValidationResult;
  documentedStatuses(operationId: string): string[];
  responseFor(operationId: string, status: number | string): Record<string, any> | undefined;
  validateResponse(operationId: string, status: number | string, body: unknown, mediaType?: string): ValidationResult;
  validateRequestBody(operationId: string, body: unknown, mediaType?: string): ValidationResult;
  validateWebhookPayload(body: unknown, webhook?: string): ValidationResult;
  validateSchema(key: string, schema: unknown, value: unknown): ValidationResult;
  /** Whether the spec says the service answers 500 to this request body (`x-server-error-when` of its schema). */
  failsTheService(operationId: string, body: unknown, mediaType?: string): boolean;
}

export function createSpecValidator(bundle: object, options?: { closed?: boolean }): SpecValidator;
export function formatErrors(errors: ErrorObject[]): string[];
