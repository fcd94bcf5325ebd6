import { MAX_JSON_DEPTH, nestsDeeperThan } from './request-body';

describe('nestsDeeperThan', () => {
  const objects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

  it('counts objects and arrays, a top-level one being level 1', () => {
    expect(nestsDeeperThan(objects(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(objects(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(nestsDeeperThan('[[1],[[2]]]', 3)).toBe(false);
    expect(nestsDeeperThan('[[1],[[[2]]]]', 3)).toBe(true);
    expect(nestsDeeperThan('"text" ', 0)).toBe(false);
  });

  it('skips brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(JSON.stringify({ s: '{[{[{[' }), 1)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ s: 'a"{{{\\"[[[' }), 1)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ s: '\\', t: { u: 1 } }), 1)).toBe(true);
    expect(nestsDeeperThan(JSON.stringify({ s: '\\\\"[[[', t: [[1]] }), 2)).toBe(true);
    expect(nestsDeeperThan(JSON.stringify({ s: '\\\\"[[[', t: [[1]] }), 3)).toBe(false);
    expect(nestsDeeperThan('{"unterminated": "[[[[', 1)).toBe(false);
  });

  it('answers a body 500,000 deep without building anything', () => {
    expect(nestsDeeperThan('['.repeat(500_000) + ']'.repeat(500_000), MAX_JSON_DEPTH)).toBe(true);
  });
});
