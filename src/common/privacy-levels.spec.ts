import { canonicalNames, isPrivacyNameArray, levelOfNames } from './privacy-levels';

describe('privacy levels', () => {
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
});
