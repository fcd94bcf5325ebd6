import { Injectable, Param, PipeTransform } from '@nestjs/common';
import { ApiError } from '../errors/api-error';
import { missingPathParameter } from '../errors/common.errors';

/** The `externalID` path parameter: present (else the spec's "missing" message), passed as is. */
@Injectable()
export class ExternalIdPipe implements PipeTransform<string | undefined, string> {
  transform(raw: string | undefined): string {
    if (raw === undefined || raw === '')
      throw ApiError.badRequest(missingPathParameter('externalID'));
    return raw;
  }
}

export const ExternalIdParam = (): ParameterDecorator => Param('externalID', ExternalIdPipe);
