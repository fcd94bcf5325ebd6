import { PRIVACY_FLOOR } from '../common/privacy-model';

/** Operator-facing messages (CLI). */
export const EnterpriseErrors = {
  NameRequired: 'An enterprise needs a non-empty --name',
  NotFound: (enterpriseId: string) => `No enterprise with id ${enterpriseId}`,
  KeyPrefixNotFound: (prefix: string) => `No API key with prefix ${prefix}`,
  FloorMissing: 'Give --scores N, --words N, --speakers N, or several of them',
  FloorInvalid: (option: string, value: string) =>
    `${option} must be a whole number from ${PRIVACY_FLOOR.min} to ${PRIVACY_FLOOR.max}, not ${JSON.stringify(value)}`,
} as const;
