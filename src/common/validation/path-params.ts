/**
 * Path parameters (docs/api.md). "Absent" parameters are real requests (`GET /groups//participants`,
 * `DELETE /webhooks/12/`): controllers declare them with `@AbsentPathParameters(…)`, so they
 * are authenticated first like every other route.
 */
import {
  Injectable,
  Param,
  PipeTransform,
  RequestMapping,
  RequestMethod,
  Type,
} from '@nestjs/common';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import { ApiError } from '../errors/api-error';
import { missingPathParameter, mustBeNumber } from '../errors/common.errors';

/**
 * Numeric ids are whole decimal numbers. Ids beyond 2^53 cannot exist (docs/design.md: they fit in a
 * JSON number), so they become 0, which matches no row and yields the module's "not found".
 */
export function parseNumericId(name: string, raw: string | undefined): number {
  if (raw === undefined || raw === '') throw ApiError.badRequest(missingPathParameter(name));
  if (!/^\d+$/.test(raw)) throw ApiError.badRequest(mustBeNumber(name));
  const value = Number(raw);
  return Number.isSafeInteger(value) ? value : 0;
}

@Injectable()
export class GroupIdPipe implements PipeTransform<string | undefined, number> {
  transform(raw: string | undefined): number {
    return parseNumericId('groupID', raw);
  }
}

/** `@GroupIdParam() groupId: number` — the `groupID` path parameter, validated. */
export const GroupIdParam = (): ParameterDecorator => Param('groupID', GroupIdPipe);

/** Thrown by the explicit routes whose path lacks a parameter. */
export function missingPathParameterError(name: string): ApiError {
  return ApiError.badRequest(missingPathParameter(name));
}

type PipeClass = Type<PipeTransform>;

/** A request whose path lacks one of its route's parameters, e.g. `DELETE /groups/`. */
export interface AbsentParameterRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The route path relative to the controller's, with the parameter left empty ('', '//x'). */
  path: string;
  /** The parameter reported missing. */
  missing: string;
  /** Parameters still in the path, checked first: `PUT /webhooks/abc/` reports groupID. */
  checkFirst?: readonly [name: string, pipe: PipeClass][];
}

/**
 * Declares a controller's "absent parameter" routes (docs/api.md): each answers 400
 * `You are missing the path parameter <name>`, after authentication like any route, and is left
 * out of the OpenAPI document. One line per route instead of a stub method each.
 */
export function AbsentPathParameters(...routes: AbsentParameterRoute[]): ClassDecorator {
  return (controller) => {
    const prototype = controller.prototype as object;
    routes.forEach((route, index) => {
      const name = `absentPathParameter${index}`;
      const handler = (): never => {
        throw missingPathParameterError(route.missing);
      };
      Object.defineProperty(prototype, name, { value: handler, configurable: true });
      const descriptor = Object.getOwnPropertyDescriptor(prototype, name)!;
      (route.checkFirst ?? []).forEach(([parameter, pipe], position) =>
        Param(parameter, pipe)(prototype, name, position),
      );
      RequestMapping({ path: route.path, method: RequestMethod[route.method] })(
        prototype,
        name,
        descriptor,
      );
      ApiExcludeEndpoint()(prototype, name, descriptor);
    });
  };
}
