import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { EXTERNAL_ID_PATTERN } from '../common/ids';
import { canonicalNames } from '../common/privacy-model';
import { GroupErrors } from '../groups/groups.errors';
import { GroupAccess } from '../groups/group-access';
import { ParticipantErrors } from '../participants/participants.errors';
import { ParticipantsRepository } from '../participants/participants.repository';

/**
 * Privacy requests (docs/privacy.md): enterprises only ask; participants decide on the check-in and
 * settings pages. A participant's own request overrides their groups'.
 */
@Injectable()
export class PrivacyService {
  constructor(
    private readonly groups: GroupAccess,
    private readonly participants: ParticipantsRepository,
  ) {}

  async requestForGroup(enterpriseId: string, groupId: number, names: string[]): Promise<void> {
    if (await this.groups.setRequestedPrivacy(enterpriseId, groupId, canonicalNames(names))) return;
    // The spec tells "exists, but not yours" apart from "does not exist" on this endpoint.
    throw ApiError.badRequest(
      (await this.groups.existsAnywhere(groupId))
        ? GroupErrors.NotAssociated
        : GroupErrors.NotFound,
    );
  }

  async requestForParticipant(
    enterpriseId: string,
    externalId: string,
    names: string[],
  ): Promise<void> {
    const updated =
      EXTERNAL_ID_PATTERN.test(externalId) &&
      (await this.participants.setRequestedPrivacy(
        enterpriseId,
        externalId,
        canonicalNames(names),
      ));
    if (!updated) throw ApiError.badRequest(ParticipantErrors.NotFound);
  }
}
