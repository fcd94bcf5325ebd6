import { ApiProperty } from '@nestjs/swagger';
import { isString, maxLength, notBlank, required, Rules } from '../../common/validation/rules';
import { GROUP_NAME_MAX_LENGTH, GroupErrors } from '../groups.errors';

export class CreateGroupDto {
  @ApiProperty({ example: 'Night shift', maxLength: GROUP_NAME_MAX_LENGTH })
  @Rules(
    required(GroupErrors.GroupNameMissing),
    isString(GroupErrors.GroupNameNotString),
    notBlank(GroupErrors.GroupNameEmpty),
    maxLength(GROUP_NAME_MAX_LENGTH, GroupErrors.GroupNameTooLong),
  )
  groupName!: string;
}
