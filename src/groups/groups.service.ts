import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { newGroupKey, newInviteCode } from '../common/ids';
import { GroupDto } from './dto/group.dto';
import { GroupErrors } from './groups.errors';
import { GroupRecord, GroupsRepository } from './groups.repository';

/** Unique-violation retries when a freshly drawn key or invite code collides (astronomically rare). */
const INSERT_ATTEMPTS = 3;

export const toGroupDto = (group: GroupRecord): GroupDto => ({
  groupID: group.groupId,
  groupName: group.name,
  requestedPrivacyLevel: group.requestedPrivacy,
  inviteCode: group.inviteCode,
  key: group.key,
  consentRequired: group.consentRequired ? 'true' : 'false',
  credits: group.credits,
});

@Injectable()
export class GroupsService {
  constructor(private readonly groups: GroupsRepository) {}

  async list(enterpriseId: string): Promise<GroupDto[]> {
    return (await this.groups.listForEnterprise(enterpriseId)).map(toGroupDto);
  }

  async create(enterpriseId: string, groupName: string): Promise<GroupDto> {
    for (let attempt = 1; ; attempt++) {
      try {
        const group = await this.groups.insertForEnterprise(enterpriseId, {
          name: groupName,
          key: newGroupKey(),
          inviteCode: newInviteCode(),
        });
        return toGroupDto(group);
      } catch (error) {
        const isUniqueViolation = (error as { code?: string }).code === '23505';
        if (!isUniqueViolation || attempt >= INSERT_ATTEMPTS) throw error;
      }
    }
  }

  async update(
    enterpriseId: string,
    groupId: number,
    changes: { groupName?: string; consentRequired?: 'true' | 'false' },
  ): Promise<GroupDto> {
    const group = await this.groups.updateForEnterprise(enterpriseId, groupId, {
      name: changes.groupName ?? null,
      consentRequired:
        changes.consentRequired === undefined ? null : changes.consentRequired === 'true',
    });
    if (!group) throw ApiError.badRequest(GroupErrors.NotFound);
    return toGroupDto(group);
  }

  async remove(enterpriseId: string, groupId: number): Promise<void> {
    const deleted = await this.groups.deleteForEnterprise(enterpriseId, groupId);
    if (!deleted) throw ApiError.badRequest(GroupErrors.NotFound);
  }

  /** External IDs of the group's participants, in the order they joined. */
  async listParticipants(enterpriseId: string, groupId: number): Promise<string[]> {
    if (!(await this.groups.existsForEnterprise(enterpriseId, groupId))) {
      throw ApiError.badRequest(GroupErrors.NotFound);
    }
    return this.groups.listParticipantExternalIds(enterpriseId, groupId);
  }
}
