/**
 * The spec's names for requestable privacy levels, in level order (DESIGN §7):
 * mhci = 1, groupPerecntiles = 2 (spelled so by the spec), userPercentiles = 3, transcript = 4,
 * features = 5.
 */
export const PRIVACY_NAMES = [
  'mhci',
  'groupPerecntiles',
  'userPercentiles',
  'transcript',
  'features',
] as const;

export type PrivacyName = (typeof PRIVACY_NAMES)[number];
