/**
 * Privacy levels as the participant pages use them (DESIGN §7): a member's level is 0–5; the level
 * asked of them is that of the participant's own request when there is one, else the group's.
 */
import { levelOfNames } from '../../common/privacy-levels';
import { PRIVACY_NAMES } from '../../common/privacy-names';

export const MIN_PRIVACY_LEVEL = 0;
export const MAX_PRIVACY_LEVEL = PRIVACY_NAMES.length;

/** Every level, lowest first. */
export const PRIVACY_LEVELS: readonly number[] = Array.from(
  { length: MAX_PRIVACY_LEVEL - MIN_PRIVACY_LEVEL + 1 },
  (_, index) => MIN_PRIVACY_LEVEL + index,
);

/**
 * The level asked of one member: the participant's own request when there is one (null = none,
 * while `[]` is a request withdrawn to level 0), otherwise the group's.
 */
export function requestedPrivacyLevel(
  participantRequest: readonly string[] | null,
  groupRequest: readonly string[] | null,
): number {
  return levelOfNames(participantRequest ?? groupRequest);
}
