import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { ApiError } from '../errors/api-error';
import { assertWellFormedBody } from '../http/request-body';
import { controlCharactersMessage, hasControlCharacter, isFreeText } from './rules';

const PRIMITIVES: unknown[] = [String, Boolean, Number, Array, Object];

/**
 * The global pipe for bodies and queries (registered as APP_PIPE). It validates DTO classes
 * decorated with `@Rules` and answers 400 with the first failing field's message. Unknown fields
 * are dropped (forward compatible, never stored). A body that is not a JSON object never gets
 * here: the JSON parser marks it, and it is answered `Invalid JSON body` (request-body.ts).
 *
 * Then, whatever the DTO's own rules: no string kept from the input (values and keys, nested ones
 * too) may hold a control character, except tab, line feed and carriage return in fields declared
 * FreeText; the first field that does answers `<field> must not contain control characters`
 * (docs/security.md, "Hostile input"). A field whose own rules give a message for it (a webhook
 * `url`: `Invalid URL`) has refused it before.
 */
@Injectable()
export class SpecValidationPipe implements PipeTransform {
  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const { metatype, type } = metadata;
    if (type === 'body') assertWellFormedBody(value);
    if (type === 'param' || type === 'custom') return value;
    if (!metatype || PRIMITIVES.includes(metatype)) return value;
    const plain = value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
    // Copy own properties only: a JSON body cannot carry a prototype, but be explicit.
    const instance = plainToInstance(metatype as new () => object, { ...plain });
    const errors = await validate(instance, {
      whitelist: true,
      forbidUnknownValues: false,
      stopAtFirstError: true,
      validationError: { target: false, value: false },
    });
    if (errors.length > 0) {
      const constraints = errors[0].constraints ?? {};
      const message = Object.values(constraints)[0] ?? 'Bad request';
      throw ApiError.badRequest(message);
    }
    for (const [field, kept] of Object.entries(instance)) {
      if (holdsControlCharacter(kept, isFreeText(metatype as new () => object, field))) {
        throw ApiError.badRequest(controlCharactersMessage(field));
      }
    }
    return instance;
  }
}

/** Any string in `value` (keys included) with a control character; nesting is at most 32 deep. */
function holdsControlCharacter(value: unknown, freeText: boolean): boolean {
  if (typeof value === 'string') return hasControlCharacter(value, freeText);
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((item) => holdsControlCharacter(item, freeText));
  return Object.entries(value).some(
    ([key, item]) => hasControlCharacter(key, freeText) || holdsControlCharacter(item, freeText),
  );
}
