import { MAX_PRIVACY_LEVEL, PRIVACY_LEVELS, requestedPrivacyLevel } from './privacy-levels';

describe('requestedPrivacyLevel', () => {
  it("uses the group's request when the participant has none", () => {
    expect(requestedPrivacyLevel(null, ['transcript'])).toBe(4);
    expect(requestedPrivacyLevel(null, [])).toBe(0);
    expect(requestedPrivacyLevel(null, null)).toBe(0);
  });

  it.each([
    [['mhci'], 1],
    [['groupPerecntiles'], 2],
    [['userPercentiles'], 3],
    [['transcript'], 4],
    [['features'], 5],
    [['mhci', 'transcript'], 4],
  ])('counts the highest level named by %j: %d', (names, level) => {
    expect(requestedPrivacyLevel(null, names)).toBe(level);
    expect(requestedPrivacyLevel(names, null)).toBe(level);
  });

  it("lets the participant's request override the group's, also downwards and when empty", () => {
    expect(requestedPrivacyLevel(['features'], ['mhci'])).toBe(5);
    expect(requestedPrivacyLevel(['mhci'], ['features'])).toBe(1);
    expect(requestedPrivacyLevel([], ['features'])).toBe(0);
  });
});

describe('PRIVACY_LEVELS', () => {
  it('lists 0 to 5', () => {
    expect(PRIVACY_LEVELS).toEqual([0, 1, 2, 3, 4, 5]);
    expect(MAX_PRIVACY_LEVEL).toBe(5);
  });
});
