import { Controller, Delete } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { EnterpriseId } from '../common/auth/enterprise.decorator';
import { ApiError } from '../common/errors/api-error';
import { MessageDto, SUCCESS } from '../common/http/message.dto';
import { ApiEndpointErrors } from '../common/swagger/api-errors.decorator';
import { ExternalIdParam } from '../common/validation/external-id';
import { AbsentPathParameters } from '../common/validation/path-params';
import { ParticipantErrors } from '../participants/participants.errors';
import { ErasureService } from './erasure.service';

@ApiTags('Participants')
@Controller('participants')
@AbsentPathParameters({ method: 'DELETE', path: '', missing: 'externalID' })
export class ErasureController {
  constructor(private readonly erasure: ErasureService) {}

  @Delete(':externalID')
  @ApiOperation({
    summary: 'Erase a participant (on a request the enterprise received)',
    description:
      'Deletes, in one transaction, the participant’s identity (encrypted email and its lookup ' +
      'hash), memberships, sessions and results, word counts, features, privacy requests, mails, ' +
      'consent records and the idempotent answers and events that name them, and takes their ' +
      'share out of the group metrics. Each group they belonged to gets a `user.deleted` event. ' +
      'Afterwards the external ID is `Participant not found` everywhere, and the same email ' +
      'later becomes a new participant with a new ID. Participants can do the same from their ' +
      'settings page.',
  })
  @ApiOkResponse({ type: MessageDto })
  @ApiEndpointErrors([ParticipantErrors.ExternalIdMissing, ParticipantErrors.NotFound])
  async erase(
    @ExternalIdParam() externalId: string,
    @EnterpriseId() enterpriseId: string,
  ): Promise<MessageDto> {
    if (!(await this.erasure.erase(externalId, { by: 'enterprise', enterpriseId }))) {
      throw ApiError.badRequest(ParticipantErrors.NotFound);
    }
    return SUCCESS;
  }
}
