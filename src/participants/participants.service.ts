import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { EXTERNAL_ID_PATTERN } from '../common/ids';
import { ParticipantDto } from './dto/participant.dto';
import { ParticipantErrors } from './participants.errors';
import { ParticipantRecord, ParticipantsRepository } from './participants.repository';

@Injectable()
export class ParticipantsService {
  constructor(private readonly participants: ParticipantsRepository) {}

  /** The enterprise's participant, or 400 `Participant not found` (also for malformed ids). */
  async require(enterpriseId: string, externalId: string): Promise<ParticipantRecord> {
    const participant = EXTERNAL_ID_PATTERN.test(externalId)
      ? await this.participants.findForEnterprise(enterpriseId, externalId)
      : null;
    if (!participant) throw ApiError.badRequest(ParticipantErrors.NotFound);
    return participant;
  }

  async get(enterpriseId: string, externalId: string): Promise<ParticipantDto> {
    const participant = await this.require(enterpriseId, externalId);
    const memberships = await this.participants.listMemberships(enterpriseId, participant.id);
    return {
      externalID: participant.externalId,
      userGroups: memberships.map((membership) => ({
        externalID: participant.externalId,
        groupID: membership.groupId,
        joinDate: membership.joinDate.toISOString(),
        privacyLevel: membership.privacyLevel,
      })),
    };
  }

  async listSessions(enterpriseId: string, externalId: string): Promise<string[]> {
    const participant = await this.require(enterpriseId, externalId);
    return this.participants.listSessionIds(enterpriseId, participant.id);
  }
}
