/**
 * A message that names a value, such as the specification's `User <externalID> is not part of
 * group <groupID>`: no answer ever equals that template, so the OpenAPI document describes it as
 * a pattern (docs/api.md, "The error contract"). The template's words are kept byte for byte
 * (escaped in the regular expression); each `<placeholder>` becomes the expression of the values
 * it stands for.
 */
export interface MessagePattern {
  /** The message as the catalogue and the specification write it, placeholders included. */
  template: string;
  /** An ECMA-262 regular expression, anchored, that every answer of this message matches. */
  pattern: string;
  /** The message with every placeholder filled with its example: a real answer. */
  example: string;
}

/** What a placeholder stands for: a regular expression (unanchored) and an example value. */
export interface Placeholder {
  pattern: string;
  example: string;
}

const PLACEHOLDER = /<([A-Za-z]+)>/g;

/** ECMA-262's syntax characters, escaped (valid with and without the `u` flag validators use). */
const escapeRegExp = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');

/**
 * The pattern of `template`, each `<name>` replaced by `placeholders[name]`. Throws when the
 * template names a placeholder not given (or is given one it does not name), and when the
 * example does not match the pattern, so a wrong declaration fails at load, not in a client.
 */
export function messagePattern(
  template: string,
  placeholders: Readonly<Record<string, Placeholder>>,
): MessagePattern {
  const named = new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]));
  const given = Object.keys(placeholders);
  const unknown = [...named].filter((name) => !(name in placeholders));
  const unused = given.filter((name) => !named.has(name));
  if (named.size === 0 || unknown.length > 0 || unused.length > 0) {
    throw new Error(
      `messagePattern(${JSON.stringify(template)}): placeholders ${[...named].join(', ') || 'none'}, ` +
        `given ${given.join(', ') || 'none'}`,
    );
  }
  const parts = template.split(PLACEHOLDER);
  // split with a capturing group: literal, name, literal, name, …, literal.
  const fill = (value: (name: string) => string, literal: (text: string) => string) =>
    parts.map((part, i) => (i % 2 === 1 ? value(part) : literal(part))).join('');
  const pattern = `^${fill((name) => `(?:${placeholders[name].pattern})`, escapeRegExp)}$`;
  const example = fill(
    (name) => placeholders[name].example,
    (text) => text,
  );
  if (!new RegExp(pattern).test(example)) {
    throw new Error(`messagePattern: the example ${JSON.stringify(example)} fails ${pattern}`);
  }
  return { template, pattern, example };
}

/** Whether `message` is an answer of `pattern`. */
export const matchesPattern = (pattern: MessagePattern, message: string): boolean =>
  new RegExp(pattern.pattern).test(message);
