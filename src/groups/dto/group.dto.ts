import { ApiProperty } from '@nestjs/swagger';
import { PRIVACY_NAMES } from '../../common/privacy-model';

/** The Group resource, fields in the spec's order. */
export class GroupDto {
  @ApiProperty({ example: 12, description: 'Identifier of the group.' })
  groupID!: number;

  @ApiProperty({ example: 'Night shift' })
  groupName!: string;

  @ApiProperty({
    type: [String],
    enum: PRIVACY_NAMES,
    example: [],
    description: "Privacy level requested from the group's participants (empty when none).",
  })
  requestedPrivacyLevel!: string[];

  @ApiProperty({ example: 'k3v9q0w2x7m1p' })
  inviteCode!: string;

  @ApiProperty({
    example: 'gk_4fJ9kQ2mZ8xW1vB7nR3tY6uP0sL5aD2c',
    description: 'The group key, used as `groupKey` when creating sessions.',
  })
  key!: string;

  @ApiProperty({
    enum: ['true', 'false'],
    example: 'false',
    description: 'A string, not a boolean.',
  })
  consentRequired!: 'true' | 'false';

  @ApiProperty({ example: 0, description: 'Credit balance (one credit per completed check-in).' })
  credits!: number;
}
