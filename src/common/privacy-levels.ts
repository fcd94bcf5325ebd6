import { PRIVACY_NAMES, PrivacyName } from './privacy-names';

/** The level an array of requested names stands for: the highest it names (`[]` = 0). */
export function levelOfNames(names: readonly string[] | null | undefined): number {
  let level = 0;
  for (const name of names ?? []) {
    level = Math.max(level, PRIVACY_NAMES.indexOf(name as PrivacyName) + 1);
  }
  return level;
}

/** Deduplicated, in canonical (level) order. */
export function canonicalNames(names: readonly string[]): PrivacyName[] {
  return PRIVACY_NAMES.filter((name) => names.includes(name));
}

export const isPrivacyNameArray = (value: unknown): value is string[] =>
  Array.isArray(value) &&
  value.every(
    (item) => typeof item === 'string' && (PRIVACY_NAMES as readonly string[]).includes(item),
  );
