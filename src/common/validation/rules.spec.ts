import { Rules, required, isString, notBlank, oneOf, firstFailure } from './rules';
import { SpecValidationPipe } from './spec-validation.pipe';
import { ApiError } from '../errors/api-error';

class ExampleDto {
  @Rules(required('missing a'), isString('a must be a string'), notBlank('a must not be empty'))
  a!: string;

  @Rules(isString('b must be a string'), oneOf(['x', 'y'], 'b must be x or y'))
  b?: string;
}

const pipe = new SpecValidationPipe();
const run = (body: unknown) => pipe.transform(body, { type: 'body', metatype: ExampleDto });
const messageOf = async (body: unknown) => {
  try {
    await run(body);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return (error as ApiError).message;
  }
};

describe('validation rules', () => {
  it('reports absent before type, and type before format', async () => {
    expect(await messageOf({})).toBe('missing a');
    expect(await messageOf({ a: null })).toBe('missing a');
    expect(await messageOf({ a: 5 })).toBe('a must be a string');
    expect(await messageOf({ a: '  ' })).toBe('a must not be empty');
  });

  it('checks fields in declaration order', async () => {
    expect(await messageOf({ b: 3 })).toBe('missing a');
    expect(await messageOf({ a: 'ok', b: 3 })).toBe('b must be a string');
    expect(await messageOf({ a: 'ok', b: 'z' })).toBe('b must be x or y');
  });

  it('skips optional fields that are not sent, but not ones sent as null', async () => {
    expect(await messageOf({ a: 'ok' })).toBeNull();
    expect(await messageOf({ a: 'ok', b: null })).toBe('b must be a string');
  });

  it('treats a non-object body as empty and drops unknown fields', async () => {
    expect(await messageOf([1, 2])).toBe('missing a');
    expect(await messageOf('text')).toBe('missing a');
    const dto = (await run({ a: 'ok', extra: 'dropped' })) as Record<string, unknown>;
    expect(dto).toEqual({ a: 'ok' });
  });

  it('firstFailure returns null when every rule passes', () => {
    expect(firstFailure([required('m'), isString('s')], 'v')).toBeNull();
  });
});
