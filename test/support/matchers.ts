/**
 * Jest's asymmetric matchers, typed `unknown`. @types/jest declares them `any`, and an `any` in an
 * expected object is what the type-aware lint rules refuse; these match exactly the same values.
 */
export const match = {
  any: (type: unknown): unknown => expect.any(type),
  stringMatching: (pattern: string | RegExp): unknown => expect.stringMatching(pattern),
  stringContaining: (text: string): unknown => expect.stringContaining(text),
  objectContaining: (object: Record<string, unknown>): unknown => expect.objectContaining(object),
};
