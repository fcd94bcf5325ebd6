import { ApiPropertyOptional } from '@nestjs/swagger';
import { isString, maxLength, notBlank, oneOf, Rules } from '../../common/validation/rules';
import { GROUP_NAME_MAX_LENGTH, GroupErrors } from '../groups.errors';

/** Both fields are optional; the ones sent are changed, the others kept. */
export class UpdateGroupDto {
  @ApiPropertyOptional({ example: 'Day shift', maxLength: GROUP_NAME_MAX_LENGTH })
  @Rules(
    isString(GroupErrors.GroupNameNotString),
    notBlank(GroupErrors.GroupNameEmpty),
    maxLength(GROUP_NAME_MAX_LENGTH, GroupErrors.GroupNameTooLong),
  )
  groupName?: string;

  @ApiPropertyOptional({ enum: ['true', 'false'], example: 'true', description: 'A string.' })
  @Rules(oneOf(['true', 'false'], GroupErrors.ConsentRequiredInvalid))
  consentRequired?: 'true' | 'false';
}
