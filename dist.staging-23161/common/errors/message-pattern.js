"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.matchesPattern = void 0;
exports.messagePattern = messagePattern;
const PLACEHOLDER = /<([A-Za-z]+)>/g;
/** ECMA-262's syntax characters, escaped (valid with and without the `u` flag validators use). */
const escapeRegExp = (text) => text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
/**
 * The pattern of `template`, each `<name>` replaced by `placeholders[name]`. Throws when the
 * template names a placeholder not given (or is given one it does not name), and when the
 * example does not match the pattern, so a wrong declaration fails at load, not in a client.
 */
function messagePattern(template, placeholders) {
    const named = new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]));
    const given = Object.keys(placeholders);
    const unknown = [...named].filter((name) => !(name in placeholders));
    const unused = given.filter((name) => !named.has(name));
    if (named.size === 0 || unknown.length > 0 || unused.length > 0) {
        throw new Error(`messagePattern(${JSON.stringify(template)}): placeholders ${[...named].join(', ') || 'none'}, ` +
            `given ${given.join(', ') || 'none'}`);
    }
    const parts = template.split(PLACEHOLDER);
    // split with a capturing group: literal, name, literal, name, …, literal.
    const fill = (value, literal) => parts.map((part, i) => (i % 2 === 1 ? value(part) : literal(part))).join('');
    const pattern = `^${fill((name) => `(?:${placeholders[name].pattern})`, escapeRegExp)}$`;
    const example = fill((name) => placeholders[name].example, (text) => text);
    if (!new RegExp(pattern).test(example)) {
        throw new Error(`messagePattern: the example ${JSON.stringify(example)} fails ${pattern}`);
    }
    return { template, pattern, example };
}
/** Whether `message` is an answer of `pattern`. */
const matchesPattern = (pattern, message) => new RegExp(pattern.pattern).test(message);
exports.matchesPattern = matchesPattern;
//# sourceMappingURL=message-pattern.js.map