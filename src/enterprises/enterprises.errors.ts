import { PRIVACY_FLOOR } from '../common/privacy-model';

/** Operator-facing messages (CLI). */
export const EnterpriseErrors = {
  NameRequired: 'An enterprise needs a non-empty --name',
  NotFound: (enterpriseId: string) => `No enterprise with id ${enterpriseId}`,
  KeyPrefixNotFound: (prefix: string) => `No API key with prefix ${prefix}`,
  FloorMissing: 'Give --scores N, --words N, --speakers N, --epsilon E, or several of them',
  FloorInvalid: (option: string, value: string) =>
    `${option} must be a whole number from ${PRIVACY_FLOOR.min} to ${PRIVACY_FLOOR.max}, not ${JSON.stringify(value)}`,
  EpsilonInvalid: (value: string) =>
    `--epsilon must be a number from 0.1 to 10 with at most two decimals, not ${JSON.stringify(value)}`,
} as const;
