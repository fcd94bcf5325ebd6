import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { EXTERNAL_ID_PATTERN } from '../common/ids';
import { ConsentLedgerRepository } from './consent-ledger.repository';
import { ConsentRecordDto } from './dto/consent-record.dto';
import { ParticipantDto } from './dto/participant.dto';
import { MembershipsRepository } from './memberships.repository';
import { ParticipantErrors } from './participants.errors';
import { ParticipantRecord, ParticipantsRepository } from './participants.repository';

@Injectable()
export class ParticipantsService {
  constructor(
    private readonly participants: ParticipantsRepository,
    private readonly memberships: MembershipsRepository,
    private readonly ledger: ConsentLedgerRepository,
  ) {}

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
    const memberships = await this.memberships.listForEnterprise(enterpriseId, participant.id);
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

  /** The participant's consent ledger, oldest first (docs/privacy.md). */
  async listConsents(enterpriseId: string, externalId: string): Promise<ConsentRecordDto[]> {
    const participant = await this.require(enterpriseId, externalId);
    const records = await this.ledger.list(enterpriseId, participant.id);
    return records.map((record) => ({ ...record, at: record.at.toISOString() }));
  }

  async listSessions(enterpriseId: string, externalId: string): Promise<string[]> {
    const participant = await this.require(enterpriseId, externalId);
    return this.participants.listSessionIds(enterpriseId, participant.id);
  }
}
