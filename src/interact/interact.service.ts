import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { EXTERNAL_ID_PATTERN } from '../common/ids';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { GroupErrors } from '../groups/groups.errors';
import { GroupAccess } from '../groups/group-access';
import { ParticipantErrors } from '../participants/participants.errors';
import type { EmailType } from './interact.errors';
import { InteractRepository } from './interact.repository';

/** Email requests (docs/emails.md): validate, queue in PostgreSQL, answer at once. */
@Injectable()
export class InteractService {
  constructor(
    private readonly repository: InteractRepository,
    private readonly groups: GroupAccess,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async emailGroup(enterpriseId: string, groupId: number, type: EmailType): Promise<number> {
    if (!(await this.groups.existsForEnterprise(enterpriseId, groupId))) {
      throw ApiError.badRequest(
        (await this.groups.existsAnywhere(groupId))
          ? GroupErrors.NotAssociated
          : GroupErrors.NotFound,
      );
    }
    return this.repository.queueForGroup(
      enterpriseId,
      groupId,
      type,
      this.config.email.dedupWindowMs,
    );
  }

  async emailParticipant(
    enterpriseId: string,
    externalId: string,
    type: EmailType,
  ): Promise<number> {
    const queued = EXTERNAL_ID_PATTERN.test(externalId)
      ? await this.repository.queueForParticipant(
          enterpriseId,
          externalId,
          type,
          this.config.email.dedupWindowMs,
        )
      : null;
    if (queued === null) throw ApiError.badRequest(ParticipantErrors.NotFound);
    return queued;
  }
}
