import { PipeTransform, Type } from '@nestjs/common';
import { SpecValidationPipe } from './spec-validation.pipe';

/**
 * Nothing was sent: no body, an empty one, or `{}` (what a client that always sends JSON sends
 * for "nothing").
 */
export function isAbsentBody(value: unknown): boolean {
  if (value === undefined) return true;
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.keys(value).length === 0
  );
}

/**
 * An optional request body: `@Body(new OptionalBodyPipe(SomeDto)) body: SomeDto | undefined`.
 * Absent ({@link isAbsentBody}) it is `undefined`; anything else is validated exactly as a
 * required `@Body() body: SomeDto` is, by the global SpecValidationPipe's rules and messages. Type
 * the parameter as a union (its metadata is then `Object`), so the global pipe passes it through
 * untouched — after refusing a malformed body, as for every route.
 */
export class OptionalBodyPipe<T extends object> implements PipeTransform<
  unknown,
  Promise<T | undefined>
> {
  private readonly validation = new SpecValidationPipe();

  constructor(private readonly dto: Type<T>) {}

  async transform(value: unknown): Promise<T | undefined> {
    if (isAbsentBody(value)) return undefined;
    return (await this.validation.transform(value, { type: 'body', metatype: this.dto })) as T;
  }
}
