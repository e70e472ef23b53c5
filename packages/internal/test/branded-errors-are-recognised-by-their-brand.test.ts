import { describe, expect, it } from 'vitest';
import { BrandedError, guardFor, hasBrand } from '../src/index.js';

const BRAND = Symbol.for('@forms-api/example/error');
class ExampleError extends BrandedError<'too_large' | 'timeout', { limit?: number }> {
  static override readonly brand = BRAND;
  override readonly name = 'ExampleError';
}
const isExampleError = guardFor(ExampleError);

describe('BrandedError', () => {
  it('carries kind, message, a frozen copy of the context and the cause', () => {
    const context = { limit: 10 };
    const cause = new Error('socket closed');
    const error = new ExampleError('too_large', 'The body is over 10 bytes; raise the limit.', { context, cause });
    context.limit = 20;
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ExampleError');
    expect(error.kind).toBe('too_large');
    expect(error.context).toEqual({ limit: 10 });
    expect(Object.isFrozen(error.context)).toBe(true);
    expect(error.cause).toBe(cause);
    expect('cause' in new ExampleError('timeout', 'late')).toBe(false);
  });

  it('is recognised by the brand of the registry symbol, as another copy of the module would mint it', () => {
    const error = new ExampleError('timeout', 'late');
    expect(hasBrand(error, Symbol.for('@forms-api/example/error'))).toBe(true);
    expect(hasBrand(error, Symbol.for('@forms-api/other/error'))).toBe(false);
    // The brand is not an own enumerable key: spreading or serialising the error does not copy it.
    expect(hasBrand({ ...error }, BRAND)).toBe(false);
    expect(JSON.stringify(error)).not.toContain('forms-api');
  });

  it('has a guard that recognises the class by its brand, as a second copy of the module would', () => {
    // A second copy: another class object, the same registry symbol.
    class CopiedExampleError extends BrandedError<'too_large' | 'timeout', { limit?: number }> {
      static override readonly brand = Symbol.for('@forms-api/example/error');
      override readonly name = 'ExampleError';
    }
    const copied = new CopiedExampleError('timeout', 'late');
    expect(copied).not.toBeInstanceOf(ExampleError);
    expect(isExampleError(copied)).toBe(true);
    expect(isExampleError(new Error('late'))).toBe(false);
  });

  it('refuses a subclass that declares no brand, rather than minting errors every guard would accept', () => {
    class UnbrandedError extends BrandedError<'x', object> {
      override readonly name = 'UnbrandedError';
    }
    expect(() => new UnbrandedError('x', 'message')).toThrow(/UnbrandedError declares no static brand/);
    expect(() => guardFor(UnbrandedError)).toThrow(TypeError);
  });

  it('is not fooled by look-alikes', () => {
    for (const value of [
      null,
      undefined,
      'ExampleError',
      42,
      { name: 'ExampleError', kind: 'timeout' },
      new Error('x'),
    ])
      expect(hasBrand(value, BRAND)).toBe(false);
  });
});
