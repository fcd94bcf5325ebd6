import { matchesPattern } from '../common/errors/message-pattern';
import { newExternalId } from '../common/ids';
import { SessionErrorPatterns, SessionErrors } from './sessions.errors';

describe('the session messages that name a value', () => {
  it("are documented with the spec's templates, byte for byte", () => {
    expect(SessionErrorPatterns.NotInGroup.template).toBe(
      'User <externalID> is not part of group <groupID>',
    );
    expect(SessionErrorPatterns.AlreadyExists.template).toBe(
      'This user already exists for the email and groupID provided, their externalID is <externalID>',
    );
  });

  it('match their patterns for every participant and group, and only those messages', () => {
    for (const groupId of [1, 12, 987_654_321, Number.MAX_SAFE_INTEGER]) {
      const externalId = newExternalId();
      const notInGroup = SessionErrors.NotInGroup(externalId, groupId);
      const alreadyExists = SessionErrors.AlreadyExists(externalId);
      expect(matchesPattern(SessionErrorPatterns.NotInGroup, notInGroup)).toBe(true);
      expect(matchesPattern(SessionErrorPatterns.AlreadyExists, alreadyExists)).toBe(true);
      expect(matchesPattern(SessionErrorPatterns.NotInGroup, alreadyExists)).toBe(false);
      expect(matchesPattern(SessionErrorPatterns.AlreadyExists, notInGroup)).toBe(false);
    }
    // Exact messages never read as one of them.
    for (const message of Object.values(SessionErrors)) {
      if (typeof message !== 'string') continue;
      for (const pattern of Object.values(SessionErrorPatterns)) {
        expect(matchesPattern(pattern, message)).toBe(false);
      }
    }
  });

  it('show as example the message a real answer carries', () => {
    const [, externalId, groupId] = /^User (\S+) is not part of group (\d+)$/.exec(
      SessionErrorPatterns.NotInGroup.example,
    )!;
    expect(SessionErrorPatterns.NotInGroup.example).toBe(
      SessionErrors.NotInGroup(externalId, Number(groupId)),
    );
    expect(SessionErrorPatterns.AlreadyExists.example).toBe(
      SessionErrors.AlreadyExists(externalId),
    );
  });
});
