/**
 * Path parameters (DESIGN §6). "Absent" parameters are real requests (`GET /groups//participants`,
 * `DELETE /webhooks/12/`): such routes are declared explicitly and answer through
 * `MissingPathParameter`, so they are authenticated first like every other route.
 */
import { Injectable, Param, PipeTransform } from '@nestjs/common';
import { ApiError } from '../errors/api-error';
import { missingPathParameter, mustBeNumber } from '../errors/common.errors';

/**
 * Numeric ids are whole decimal numbers. Ids beyond 2^53 cannot exist (DESIGN §4: they fit in a
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
