import { ApiProperty } from '@nestjs/swagger';
import {
  describeRequestableLevels,
  isPrivacyNameArray,
  PRIVACY_NAMES,
} from '../../common/privacy-model';
import { holds, required, Rules } from '../../common/validation/rules';
import { PrivacyErrors } from '../privacy.errors';

export class PrivacyRequestDto {
  @ApiProperty({
    type: [String],
    enum: PRIVACY_NAMES,
    example: ['mhci', 'groupPerecntiles'],
    description:
      `What you ask participants to share. Levels: ${describeRequestableLevels()}; the request ` +
      'is the highest named level ([] withdraws it).',
  })
  @Rules(
    required(PrivacyErrors.RequestedPrivacyLevelMissing),
    holds(isPrivacyNameArray, PrivacyErrors.RequestedPrivacyLevelInvalid),
  )
  requestedPrivacyLevel!: string[];
}
