import { ApiProperty } from '@nestjs/swagger';
import { EXAMPLE_IDS } from '../../common/swagger/examples';
import {
  isNumber,
  isString,
  noControlCharacters,
  required,
  Rules,
  satisfies,
} from '../../common/validation/rules';
import { exampleCheckinUrl } from '../../participant-links/example-links';
import { isAcceptableReturnUrl } from '../return-url';
import { SESSION_CREATED_MESSAGE, SessionErrors } from '../sessions.errors';

/** Fields in the spec's order: their checks run in this order. */
export class CreateSessionDto {
  @ApiProperty({ example: 12, description: 'The group (a JSON number).' })
  @Rules(required(SessionErrors.GroupIdMissing), isNumber(SessionErrors.GroupIdNotNumber))
  groupID!: number;

  @ApiProperty({ example: 'gk_4fJ9kQ2mZ8xW1vB7nR3tY6uP0sL5aD2c', description: "The group's key." })
  @Rules(
    required(SessionErrors.GroupKeyMissing),
    isString(SessionErrors.GroupKeyNotString),
    noControlCharacters(SessionErrors.InvalidGroupKey),
  )
  groupKey!: string;

  @ApiProperty({
    example: 'person@example.com',
    description:
      "The participant's email for a first session (one plain address: no display name, list, " +
      'group or comment), their ok_ external ID afterwards.',
  })
  @Rules(
    required(SessionErrors.UserIdentifierMissing),
    isString(SessionErrors.UserIdentifierNotString),
    noControlCharacters(SessionErrors.IdentifierInvalid),
  )
  userIdentifier!: string;

  @ApiProperty({
    example: 'https://app.example.com/checkin/finished',
    description:
      'HTTPS address the participant is sent to when the check-in is complete: a public host ' +
      '(not localhost, nor a private or reserved IP address), no control characters. Stored ' +
      'normalised (`new URL(v).href`).',
  })
  @Rules(
    required(SessionErrors.ReturnUrlMissing),
    isString(SessionErrors.ReturnUrlNotString),
    satisfies(isAcceptableReturnUrl, SessionErrors.ReturnUrlNotHttps),
  )
  returnURL!: string;
}

export class SessionCreatedDto {
  @ApiProperty({ example: true })
  success!: boolean;

  @ApiProperty({ example: SESSION_CREATED_MESSAGE })
  message!: string;

  @ApiProperty({ example: EXAMPLE_IDS.externalId, description: "The participant's external ID." })
  userIdentifier!: string;

  @ApiProperty({
    example: exampleCheckinUrl(EXAMPLE_IDS.sessionId),
    description:
      'Send the participant here: `<PUBLIC_BASE_URL>/checkin/<token>`, the token a signed ' +
      '`<key id>.<claims>.<signature>` naming this session, valid `CHECKIN_TOKEN_TTL_HOURS`.',
  })
  redirectUrl!: string;

  @ApiProperty({ example: EXAMPLE_IDS.sessionId })
  sessionID!: string;
}
