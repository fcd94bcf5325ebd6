import { parseEmailPreferences, parsePrivacyLevel, parseSavedFlag } from './page-forms';

describe('parsePrivacyLevel', () => {
  it.each(['0', '1', '2', '3', '4', '5'])('accepts %s', (value) =>
    expect(parsePrivacyLevel({ privacyLevel: value })).toBe(Number(value)),
  );

  it('accepts a whole number sent as a number', () => {
    expect(parsePrivacyLevel({ privacyLevel: 3 })).toBe(3);
  });

  it.each([
    ['-1'],
    ['6'],
    ['abc'],
    [''],
    [' 3'],
    ['3 '],
    ['03'],
    ['3.0'],
    ['1e0'],
    ['٣'],
    [3.5],
    [-0.5],
    [null],
    [true],
    [['3']],
  ])('refuses %j', (value) => expect(parsePrivacyLevel({ privacyLevel: value })).toBeNull());

  it('refuses an absent field, an empty form and no form', () => {
    expect(parsePrivacyLevel({ other: '3' })).toBeNull();
    expect(parsePrivacyLevel({})).toBeNull();
    expect(parsePrivacyLevel(undefined)).toBeNull();
    expect(parsePrivacyLevel(null)).toBeNull();
  });

  it('reads own fields only', () => {
    const inherited = Object.create({ privacyLevel: '3' }) as Record<string, unknown>;
    expect(parsePrivacyLevel(inherited)).toBeNull();
  });
});

describe('parseEmailPreferences', () => {
  it('treats a sent checkbox as checked and an absent one as unchecked', () => {
    expect(parseEmailPreferences({ checkinReminder: 'on' })).toEqual({
      checkinReminder: true,
      privacyRequest: false,
    });
    expect(parseEmailPreferences({ privacyRequest: 'on' })).toEqual({
      checkinReminder: false,
      privacyRequest: true,
    });
    expect(parseEmailPreferences({ checkinReminder: 'on', privacyRequest: 'on' })).toEqual({
      checkinReminder: true,
      privacyRequest: true,
    });
    expect(parseEmailPreferences({})).toEqual({ checkinReminder: false, privacyRequest: false });
    expect(parseEmailPreferences(undefined)).toEqual({
      checkinReminder: false,
      privacyRequest: false,
    });
  });

  it('does not read "false" or "off" as checked', () => {
    expect(parseEmailPreferences({ checkinReminder: 'false', privacyRequest: 'off' })).toEqual({
      checkinReminder: false,
      privacyRequest: false,
    });
  });
});

describe('parseSavedFlag', () => {
  it('knows the three forms and ignores anything else', () => {
    expect(parseSavedFlag('consent')).toBe('consent');
    expect(parseSavedFlag('privacy')).toBe('privacy');
    expect(parseSavedFlag('preferences')).toBe('preferences');
    expect(parseSavedFlag('toString')).toBeNull();
    expect(parseSavedFlag('<script>')).toBeNull();
    expect(parseSavedFlag(['privacy'])).toBeNull();
    expect(parseSavedFlag(undefined)).toBeNull();
  });
});
