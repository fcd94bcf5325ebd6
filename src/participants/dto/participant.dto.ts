import { ApiProperty } from '@nestjs/swagger';
import { EXAMPLE_IDS } from '../../common/swagger/examples';

export class MembershipDto {
  @ApiProperty({ example: EXAMPLE_IDS.externalId })
  externalID!: string;

  @ApiProperty({ example: 12 })
  groupID!: number;

  @ApiProperty({ example: '2026-11-22T09:30:00.000Z', description: 'ISO 8601, UTC.' })
  joinDate!: string;

  @ApiProperty({
    example: 0,
    minimum: 0,
    maximum: 5,
    description: "The participant's own privacy level for this group (0 = anonymised).",
  })
  privacyLevel!: number;
}

export class ParticipantDto {
  @ApiProperty({ example: EXAMPLE_IDS.externalId })
  externalID!: string;

  @ApiProperty({ type: [MembershipDto] })
  userGroups!: MembershipDto[];
}
