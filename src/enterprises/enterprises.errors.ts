/** Operator-facing messages (CLI). */
export const EnterpriseErrors = {
  NameRequired: 'An enterprise needs a non-empty --name',
  NotFound: (enterpriseId: string) => `No enterprise with id ${enterpriseId}`,
  KeyPrefixNotFound: (prefix: string) => `No API key with prefix ${prefix}`,
} as const;
