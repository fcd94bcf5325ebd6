/** Sessions' client-facing messages: the spec's strings byte for byte, then our own (docs/api.md). */
import {
  missingBodyParameter,
  missingPathParameter,
  mustBeNumber,
  mustBeString,
} from '../common/errors/common.errors';

export const SessionErrors = {
  SessionIdMissing: missingPathParameter('sessionID'),
  NotFound: 'Session not found',
  GroupIdMissing: missingBodyParameter('groupID'),
  GroupIdNotNumber: mustBeNumber('groupID'),
  GroupKeyMissing: missingBodyParameter('groupKey'),
  GroupKeyNotString: mustBeString('groupKey'),
  UserIdentifierMissing: missingBodyParameter('userIdentifier'),
  UserIdentifierNotString: mustBeString('userIdentifier'),
  ReturnUrlMissing: missingBodyParameter('returnURL'),
  ReturnUrlNotString: mustBeString('returnURL'),
  ReturnUrlNotHttps: 'returnURL must be an HTTPS address',
  GroupNotFound: 'Group not found',
  InvalidGroupKey: 'Invalid groupKey',
  IdentifierInvalid: 'We require email for new users or ok_ id for existing users',
  NotInGroup: (externalId: string, groupId: number) =>
    `User ${externalId} is not part of group ${groupId}`,
  AlreadyExists: (externalId: string) =>
    `This user already exists for the email and groupID provided, their externalID is ${externalId}`,
  IdempotencyKeyReused: 'Idempotency-Key reused with a different request',
  IdempotencyKeyInvalid: 'Idempotency-Key must be 1 to 255 visible ASCII characters',
} as const;

export const SESSION_CREATED_MESSAGE = 'Redirect URL generated successfully.';
