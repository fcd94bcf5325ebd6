import { ApiError } from '../errors/api-error';
import { isAbsentBody, OptionalBodyPipe } from './optional-body.pipe';
import { isString, required, Rules } from './rules';

class ExampleDto {
  @Rules(required('missing a'), isString('a must be a string'))
  a!: string;
}

const pipe = new OptionalBodyPipe(ExampleDto);
const messageOf = async (body: unknown): Promise<string | null> => {
  try {
    await pipe.transform(body);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return (error as ApiError).message;
  }
};

describe('OptionalBodyPipe', () => {
  it('answers undefined when nothing was sent: no body, or {}', async () => {
    await expect(pipe.transform(undefined)).resolves.toBeUndefined();
    await expect(pipe.transform({})).resolves.toBeUndefined();
    expect([undefined, {}, null, [], ''].map(isAbsentBody)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('validates anything else as a required body, with the same messages', async () => {
    const valid = await pipe.transform({ a: 'x', unknown: 1 });
    expect(valid).toBeInstanceOf(ExampleDto);
    expect(valid).toEqual({ a: 'x' });
    expect(await messageOf({ b: 1 })).toBe('missing a');
    expect(await messageOf({ a: 5 })).toBe('a must be a string');
    // Not an object: read as an empty one, as the global pipe does for a required body.
    for (const body of [null, [], 'text', 7, [{ a: 'x' }]]) {
      expect(await messageOf(body)).toBe('missing a');
    }
  });
});
