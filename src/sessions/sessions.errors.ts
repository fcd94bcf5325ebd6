/** Sessions' client-facing messages: the spec's strings byte for byte, then our own (docs/api.md). */
import {
  missingBodyParameter,
  missingPathParameter,
  mustBeNumber,
  mustBeString,
} from '../common/errors/common.errors';
import { messagePattern } from '../common/errors/message-pattern';
import { ID_FORMATS, idPatternSource } from '../common/ids';
import { EXAMPLE_IDS } from '../common/swagger/examples';

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

/** What the messages' placeholders stand for: an existing participant's id, an existing group's. */
const EXTERNAL_ID = {
  pattern: idPatternSource(ID_FORMATS.externalId),
  example: EXAMPLE_IDS.externalId,
};
const GROUP_ID = { pattern: '[1-9][0-9]*', example: String(EXAMPLE_IDS.groupId) };

/**
 * The messages above that name a value, as the OpenAPI document describes them: the spec's
 * templates byte for byte, the values as patterns (src/sessions/sessions.errors.spec.ts checks
 * that the messages answered match them).
 */
export const SessionErrorPatterns = {
  NotInGroup: messagePattern('User <externalID> is not part of group <groupID>', {
    externalID: EXTERNAL_ID,
    groupID: GROUP_ID,
  }),
  AlreadyExists: messagePattern(
    'This user already exists for the email and groupID provided, their externalID is <externalID>',
    { externalID: EXTERNAL_ID },
  ),
} as const;

export const SESSION_CREATED_MESSAGE = 'Redirect URL generated successfully.';
