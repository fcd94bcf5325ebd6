import { PRIVACY_FLOOR } from '../common/privacy-model';

/** Operator-facing messages (CLI). */
export const EnterpriseErrors = {
  NameRequired: 'An enterprise needs a non-empty --name',
  NotFound: (enterpriseId: string) => `No enterprise with id ${enterpriseId}`,
  KeyPrefixNotFound: (prefix: string) => `No API key with prefix ${prefix}`,
  FloorMissing:
    'Give --scores N, --words N, --speakers N, --budget E, --window month|week, --max-margin M, or several of them',
  FloorInvalid: (option: string, value: string) =>
    `${option} must be a whole number from ${PRIVACY_FLOOR.min} to ${PRIVACY_FLOOR.max}, not ${JSON.stringify(value)}`,
  BudgetInvalid: (option: string, value: string) =>
    `${option} must be a number from 1 to 100 with at most two decimals, not ${JSON.stringify(value)}`,
  WindowInvalid: (value: string) => `--window must be month or week, not ${JSON.stringify(value)}`,
} as const;
