/**
 * Groups' client-facing messages. Spec strings are byte for byte, typos included (POST /groups
 * really says "path parameter groupName"); the rest are docs/api.md's wording.
 */
import { missingPathParameter, mustBeString } from '../common/errors/common.errors';

export const GroupErrors = {
  GroupIdMissing: missingPathParameter('groupID'),
  GroupIdNotNumber: 'groupID must be a number',
  GroupNameMissing: missingPathParameter('groupName'),
  GroupNameNotString: mustBeString('groupName'),
  GroupNameEmpty: 'groupName must not be empty',
  GroupNameTooLong: 'groupName must be at most 200 characters',
  ConsentRequiredInvalid: "consentRequired must be 'true' or 'false'",
  NotFound: 'Group not found',
  NotAssociated: "Group doesn't exist in associated groups",
} as const;

export const GROUP_NAME_MAX_LENGTH = 200;
