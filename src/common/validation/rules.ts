/**
 * Field validation that yields the spec's exact messages in the spec's order.
 *
 * A DTO property carries one `@Rules(...)` decorator listing its checks in order (absent before
 * type, then format); the first failing check's message is the property's only error. Properties
 * are checked in declaration order, so a DTO lists its fields in the order of the spec's table.
 * Nest's stock ValidationPipe reports every failing constraint at once in an order that depends on
 * decorator internals; one ordered list per field makes the contract explicit and testable.
 */
import { registerDecorator, ValidationArguments } from 'class-validator';

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
export const hasControlCharacter = (value: string, freeText = false): boolean =>
  (freeText ? CONTROL_CHARACTER_IN_FREE_TEXT : CONTROL_CHARACTER).test(value);

/**
 * For a field whose own message covers a control character (`Invalid groupKey`): that message
 * then wins over the pipe's generic `<field> must not contain control characters`.
 */
export const noControlCharacters =
  (message: string): Rule =>
  (value) =>
    typeof value === 'string' && hasControlCharacter(value) ? message : null;

export const controlCharactersMessage = (field: string): string =>
  `${field} must not contain control characters`;

const FREE_TEXT = new WeakMap<object, Set<string>>();

/**
 * Property decorator: the field is free text, so tab, line feed and carriage return are allowed
 * in it (and in every string nested in it). Other control characters are refused everywhere by
 * the validation pipe.
 */
export function FreeText(): PropertyDecorator {
  return (target, propertyName) => {
    const fields = FREE_TEXT.get(target) ?? new Set<string>();
    fields.add(String(propertyName));
    FREE_TEXT.set(target, fields);
  };
}

/** Whether `property` of instances of `type` (or of its parents) is declared FreeText. */
export function isFreeText(type: new () => object, property: string): boolean {
  for (
    let proto: object | null = type.prototype as object;
    proto;
    proto = Object.getPrototypeOf(proto) as object | null
  ) {
    if (FREE_TEXT.get(proto)?.has(property)) return true;
  }
  return false;
}

/** A check returns an error message, or null when the value passes. */
export type Rule = (value: unknown) => string | null;

/** Marker: once a `required` rule passes or is absent, `undefined` means "not sent" and skips the rest. */
const REQUIRED = Symbol('required');
type RequiredRule = Rule & { [REQUIRED]?: true };

/** Fails when the field is absent (undefined or null). */
export function required(message: string): Rule {
  const rule: RequiredRule = (value) => (value === undefined || value === null ? message : null);
  rule[REQUIRED] = true;
  return rule;
}

export const isString =
  (message: string): Rule =>
  (value) =>
    typeof value === 'string' ? null : message;

/** A JSON number (not a numeric string), finite. */
export const isNumber =
  (message: string): Rule =>
  (value) =>
    typeof value === 'number' && Number.isFinite(value) ? null : message;

/** Passes when `predicate` holds for a string value (apply after `isString`). */
export const satisfies =
  (predicate: (value: string) => boolean, message: string): Rule =>
  (value) =>
    typeof value === 'string' && predicate(value) ? null : message;

/** Passes when `predicate` holds for the value, whatever its type. */
export const holds =
  (predicate: (value: unknown) => boolean, message: string): Rule =>
  (value) =>
    predicate(value) ? null : message;

export const notBlank =
  (message: string): Rule =>
  (value) =>
    typeof value === 'string' && value.trim().length > 0 ? null : message;

export const maxLength =
  (max: number, message: string): Rule =>
  (value) =>
    typeof value === 'string' && value.length > max ? message : null;

export const oneOf =
  (allowed: readonly unknown[], message: string): Rule =>
  (value) =>
    allowed.includes(value) ? null : message;

/** Runs the rules in order; the first message wins. */
export function firstFailure(rules: Rule[], value: unknown): string | null {
  const isRequired = rules.some((rule) => (rule as RequiredRule)[REQUIRED]);
  if (!isRequired && value === undefined) return null;
  for (const rule of rules) {
    const message = rule(value);
    if (message !== null) return message;
  }
  return null;
}

/** Property decorator: validate with these rules, in this order. */
export function Rules(...rules: Rule[]): PropertyDecorator {
  return (target, propertyName) => {
    registerDecorator({
      name: 'specRules',
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => firstFailure(rules, value) === null,
        defaultMessage: (args?: ValidationArguments) => firstFailure(rules, args?.value) ?? '',
      },
    });
  };
}
