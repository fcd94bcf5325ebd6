"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.oneOf = exports.maxLength = exports.notBlank = exports.holds = exports.satisfies = exports.isNumber = exports.isString = exports.controlCharactersMessage = exports.noControlCharacters = exports.hasControlCharacter = void 0;
exports.FreeText = FreeText;
exports.isFreeText = isFreeText;
exports.required = required;
exports.firstFailure = firstFailure;
exports.Rules = Rules;
/**
 * Field validation that yields the spec's exact messages in the spec's order.
 *
 * A DTO property carries one `@Rules(...)` decorator listing its checks in order (absent before
 * type, then format); the first failing check's message is the property's only error. Properties
 * are checked in declaration order, so a DTO lists its fields in the order of the spec's table.
 * Nest's stock ValidationPipe reports every failing constraint at once in an order that depends on
 * decorator internals; one ordered list per field makes the contract explicit and testable.
 */
const class_validator_1 = require("class-validator");
/**
 * C0 control characters (U+0000–U+001F) and DEL. PostgreSQL cannot store NUL in text, and none
 * of them belongs in a name, a key or an address; free text (FreeText) may hold tab, line feed
 * and carriage return (docs/security.md, "Hostile input").
 */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER_IN_FREE_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/** True when `value` holds a control character not allowed in it. */
const hasControlCharacter = (value, freeText = false) => (freeText ? CONTROL_CHARACTER_IN_FREE_TEXT : CONTROL_CHARACTER).test(value);
exports.hasControlCharacter = hasControlCharacter;
/**
 * For a field whose own message covers a control character (`Invalid groupKey`): that message
 * then wins over the pipe's generic `<field> must not contain control characters`.
 */
const noControlCharacters = (message) => (value) => typeof value === 'string' && (0, exports.hasControlCharacter)(value) ? message : null;
exports.noControlCharacters = noControlCharacters;
const controlCharactersMessage = (field) => `${field} must not contain control characters`;
exports.controlCharactersMessage = controlCharactersMessage;
const FREE_TEXT = new WeakMap();
/**
 * Property decorator: the field is free text, so tab, line feed and carriage return are allowed
 * in it (and in every string nested in it). Other control characters are refused everywhere by
 * the validation pipe.
 */
function FreeText() {
    return (target, propertyName) => {
        const fields = FREE_TEXT.get(target) ?? new Set();
        fields.add(String(propertyName));
        FREE_TEXT.set(target, fields);
    };
}
/** Whether `property` of instances of `type` (or of its parents) is declared FreeText. */
function isFreeText(type, property) {
    for (let proto = type.prototype; proto; proto = Object.getPrototypeOf(proto)) {
        if (FREE_TEXT.get(proto)?.has(property))
            return true;
    }
    return false;
}
/** Marker: once a `required` rule passes or is absent, `undefined` means "not sent" and skips the rest. */
const REQUIRED = Symbol('required');
/** Fails when the field is absent (undefined or null). */
function required(message) {
    const rule = (value) => (value === undefined || value === null ? message : null);
    rule[REQUIRED] = true;
    return rule;
}
const isString = (message) => (value) => typeof value === 'string' ? null : message;
exports.isString = isString;
/** A JSON number (not a numeric string), finite. */
const isNumber = (message) => (value) => typeof value === 'number' && Number.isFinite(value) ? null : message;
exports.isNumber = isNumber;
/** Passes when `predicate` holds for a string value (apply after `isString`). */
const satisfies = (predicate, message) => (value) => typeof value === 'string' && predicate(value) ? null : message;
exports.satisfies = satisfies;
/** Passes when `predicate` holds for the value, whatever its type. */
const holds = (predicate, message) => (value) => predicate(value) ? null : message;
exports.holds = holds;
const notBlank = (message) => (value) => typeof value === 'string' && value.trim().length > 0 ? null : message;
exports.notBlank = notBlank;
const maxLength = (max, message) => (value) => typeof value === 'string' && value.length > max ? message : null;
exports.maxLength = maxLength;
const oneOf = (allowed, message) => (value) => allowed.includes(value) ? null : message;
exports.oneOf = oneOf;
/** Runs the rules in order; the first message wins. */
function firstFailure(rules, value) {
    const isRequired = rules.some((rule) => rule[REQUIRED]);
    if (!isRequired && value === undefined)
        return null;
    for (const rule of rules) {
        const message = rule(value);
        if (message !== null)
            return message;
    }
    return null;
}
/** Property decorator: validate with these rules, in this order. */
function Rules(...rules) {
    return (target, propertyName) => {
        (0, class_validator_1.registerDecorator)({
            name: 'specRules',
            target: target.constructor,
            propertyName: String(propertyName),
            validator: {
                validate: (value) => firstFailure(rules, value) === null,
                defaultMessage: (args) => firstFailure(rules, args?.value) ?? '',
            },
        });
    };
}
//# sourceMappingURL=rules.js.map