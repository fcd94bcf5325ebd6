import {
  canonicalNames,
  describeRequestableLevels,
  describeSessionFields,
  isPrivacyNameArray,
  levelOfNames,
  levelRevealing,
  MAX_PRIVACY_LEVEL,
  PARTICIPANT_METRIC_LEVEL,
  PRIVACY_LEVELS,
  PRIVACY_NAMES_CHECK,
  requestedPrivacyLevel,
  sessionFieldsAt,
} from './privacy-model';
import { translator } from './i18n/catalogue';

describe('privacy model', () => {
  it('maps names to levels in the spec order and takes the highest', () => {
    expect(levelOfNames([])).toBe(0);
    expect(levelOfNames(null)).toBe(0);
    expect(levelOfNames(['mhci'])).toBe(1);
    expect(levelOfNames(['groupPerecntiles'])).toBe(2);
    expect(levelOfNames(['userPercentiles'])).toBe(3);
    expect(levelOfNames(['transcript'])).toBe(4);
    expect(levelOfNames(['features'])).toBe(5);
    expect(levelOfNames(['mhci', 'transcript', 'groupPerecntiles'])).toBe(4);
  });

  it('deduplicates into canonical order', () => {
    expect(canonicalNames(['features', 'mhci', 'features'])).toEqual(['mhci', 'features']);
  });

  it('accepts only arrays of the exact names (the spec spelling included)', () => {
    expect(isPrivacyNameArray([])).toBe(true);
    expect(isPrivacyNameArray(['groupPerecntiles'])).toBe(true);
    expect(isPrivacyNameArray(['groupPercentiles'])).toBe(false);
    expect(isPrivacyNameArray(['MHCI'])).toBe(false);
    expect(isPrivacyNameArray('mhci')).toBe(false);
    expect(isPrivacyNameArray([1])).toBe(false);
    expect(isPrivacyNameArray({})).toBe(false);
  });

  it('lists levels 0 to 5, each with its plain-words text', () => {
    expect(PRIVACY_LEVELS).toEqual([0, 1, 2, 3, 4, 5]);
    expect(MAX_PRIVACY_LEVEL).toBe(5);
    expect(new Set(PRIVACY_LEVELS.map((level) => translator('en')(`levelText${level}`))).size).toBe(
      PRIVACY_LEVELS.length,
    );
  });

  it('reveals session fields cumulatively, as docs/privacy.md lists them', () => {
    expect(sessionFieldsAt(0)).toEqual([
      'externalID',
      'sessionID',
      'timestamp',
      'groupID',
      'version',
    ]);
    expect(sessionFieldsAt(1).slice(5)).toEqual(['mhci', 'subscores']);
    expect(sessionFieldsAt(5).slice(7)).toEqual([
      'groupPercentiles',
      'userPercentiles',
      'transcript',
      'features',
    ]);
    expect(levelRevealing('mhci')).toBe(1);
    expect(levelRevealing('transcript')).toBe(4);
    expect(levelRevealing('version')).toBe(0);
  });

  it('gates participant metrics by the level that reveals what they aggregate', () => {
    expect(PARTICIPANT_METRIC_LEVEL).toEqual({ count: 0, mhci: 1, wordcloud: 4 });
  });

  it('describes itself for the API documentation and the database', () => {
    expect(describeRequestableLevels()).toBe(
      'mhci = 1, groupPerecntiles = 2, userPercentiles = 3, transcript = 4, features = 5',
    );
    expect(describeSessionFields()).toBe(
      'Level 0: externalID, sessionID, timestamp, groupID, version; 1: + mhci, subscores; ' +
        '2: + groupPercentiles; 3: + userPercentiles; 4: + transcript; 5: + features',
    );
    expect(PRIVACY_NAMES_CHECK).toBe(
      "(requested_privacy <@ ARRAY['mhci'::text, 'groupPerecntiles'::text, 'userPercentiles'::text, 'transcript'::text, 'features'::text])",
    );
  });
});

describe('requestedPrivacyLevel', () => {
  it("uses the group's request when the participant has none", () => {
    expect(requestedPrivacyLevel(null, ['transcript'])).toBe(4);
    expect(requestedPrivacyLevel(null, [])).toBe(0);
    expect(requestedPrivacyLevel(null, null)).toBe(0);
  });

  it("lets the participant's request override the group's, also downwards and when empty", () => {
    expect(requestedPrivacyLevel(['features'], ['mhci'])).toBe(5);
    expect(requestedPrivacyLevel(['mhci'], ['features'])).toBe(1);
    expect(requestedPrivacyLevel([], ['features'])).toBe(0);
  });
});
