import { ApiProperty } from '@nestjs/swagger';
import { isPrivacyNameArray } from '../../common/privacy-levels';
import { PRIVACY_NAMES } from '../../common/privacy-names';
import { holds, required, Rules } from '../../common/validation/rules';
import { PrivacyErrors } from '../privacy.errors';

export class PrivacyRequestDto {
  @ApiProperty({
    type: [String],
    enum: PRIVACY_NAMES,
    example: ['mhci', 'groupPerecntiles'],
    description:
      'What you ask participants to share. Levels: mhci = 1, groupPerecntiles = 2, userPercentiles = 3, ' +
      'transcript = 4, features = 5; the request is the highest named level ([] withdraws it).',
  })
  @Rules(
    required(PrivacyErrors.RequestedPrivacyLevelMissing),
    holds(isPrivacyNameArray, PrivacyErrors.RequestedPrivacyLevelInvalid),
  )
  requestedPrivacyLevel!: string[];
}
