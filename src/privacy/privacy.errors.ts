/** Privacy requests' client-facing messages (spec strings, byte for byte, typo included). */
import { missingBodyParameter } from '../common/errors/common.errors';

export const PrivacyErrors = {
  RequestedPrivacyLevelMissing: missingBodyParameter('requestedPrivacyLevel'),
  RequestedPrivacyLevelInvalid:
    "Invalid requestedPrivacyLevel. Should be an array with elements in ['mhci', 'groupPerecntiles', 'userPercentiles', 'transcript', 'features'].",
} as const;
