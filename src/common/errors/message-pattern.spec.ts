import { matchesPattern, messagePattern } from './message-pattern';

describe('messagePattern', () => {
  const hex = { pattern: '[0-9a-f]{4}', example: 'beef' };

  it("keeps the template's words byte for byte and makes each placeholder its expression", () => {
    const message = messagePattern('Item <id> (of [a.b]) costs $1+? <n>|done', {
      id: hex,
      n: { pattern: '[1-9][0-9]*', example: '12' },
    });
    expect(message).toEqual({
      template: 'Item <id> (of [a.b]) costs $1+? <n>|done',
      pattern:
        '^Item (?:[0-9a-f]{4}) \\(of \\[a\\.b\\]\\) costs \\$1\\+\\? (?:[1-9][0-9]*)\\|done$',
      example: 'Item beef (of [a.b]) costs $1+? 12|done',
    });
    expect(matchesPattern(message, 'Item 0a1f (of [a.b]) costs $1+? 7|done')).toBe(true);
    // Anchored, and the words are literal: no other text, no regular-expression reading of them.
    expect(matchesPattern(message, 'Item 0a1f (of [a.b]) costs $1+? 7|done!')).toBe(false);
    expect(matchesPattern(message, 'Item 0a1f (of [axb]) costs $1+? 7|done')).toBe(false);
    expect(matchesPattern(message, 'Item <id> (of [a.b]) costs $1+? <n>|done')).toBe(false);
    // Valid where validators compile it with the `u` flag.
    expect(() => new RegExp(message.pattern, 'u')).not.toThrow();
  });

  it('refuses a declaration that does not fit its template, or an example its pattern refuses', () => {
    expect(() => messagePattern('No placeholder', {})).toThrow(/placeholders none/);
    expect(() => messagePattern('User <id> in <group>', { id: hex })).toThrow(/given id/);
    expect(() => messagePattern('User <id>', { id: hex, group: hex })).toThrow(/given id, group/);
    expect(() => messagePattern('User <id>', { id: { pattern: '[0-9]+', example: 'x' } })).toThrow(
      /the example "User x" fails/,
    );
  });
});
