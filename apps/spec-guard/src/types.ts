// The vocabulary of the guard: a breaking change names its rule, where it happened, and what
// the spec said before and says now.
export type RuleId =
  | 'operation-removed'
  | 'webhook-removed'
  | 'response-status-removed'
  | 'request-body-became-required'
  | 'request-parameter-removed'
  | 'request-parameter-became-required'
  | 'request-property-removed'
  | 'request-property-became-required'
  | 'request-enum-narrowed'
  | 'request-type-narrowed'
  | 'response-property-removed'
  | 'response-property-became-optional'
  | 'response-enum-widened'
  | 'response-type-changed';

export interface BreakingChange {
  rule: RuleId;
  /** Where: operation (or webhook), then the part of it, then the field path. */
  location: string;
  before: string;
  after: string;
}

/** Requests flow from clients to the service; responses and webhook payloads flow to clients. */
export type Direction = 'request' | 'response';

export type Json = Record<string, any>;
