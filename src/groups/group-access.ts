import { Injectable } from '@nestjs/common';
import type { PrivacyName } from '../common/privacy-model';
import type { Sql } from '../database/database';
import { GroupRecord, GroupsRepository } from './groups.repository';

/**
 * What other modules may read of, or do to, a group: exactly the repository methods they use,
 * passed through unchanged (same SQL; a caller's `sql` transaction handle is passed on). Other
 * modules inject this, never `GroupsRepository` (`no-foreign-repository`, docs/design.md).
 */
@Injectable()
export class GroupAccess {
  constructor(private readonly groups: GroupsRepository) {}

  findForEnterprise(enterpriseId: string, groupId: number): Promise<GroupRecord | null> {
    return this.groups.findForEnterprise(enterpriseId, groupId);
  }

  existsForEnterprise(enterpriseId: string, groupId: number): Promise<boolean> {
    return this.groups.existsForEnterprise(enterpriseId, groupId);
  }

  /** Whether a group with this id exists at all, in any enterprise. */
  existsAnywhere(groupId: number): Promise<boolean> {
    return this.groups.existsAnywhere(groupId);
  }

  /** Stores the group's privacy request; false when the enterprise has no such group. */
  setRequestedPrivacy(
    enterpriseId: string,
    groupId: number,
    names: PrivacyName[],
  ): Promise<boolean> {
    return this.groups.setRequestedPrivacy(enterpriseId, groupId, names);
  }

  /** One credit per completed check-in, inside the caller's transaction when given one. */
  deductCredit(groupId: number, sql?: Sql): Promise<void> {
    return this.groups.deductCredit(groupId, sql);
  }
}
