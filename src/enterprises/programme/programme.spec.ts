import {
  biometricInference,
  isWordFeature,
  parseDeclaredBy,
  parseProgramme,
  ProgrammeErrors,
  wordFeaturesOnly,
} from './programme';

const VALID = {
  jurisdiction: 'eu',
  purpose: 'wellbeing',
  basis: ' GDPR art. 9(2)(a) ',
  contact: ' dpo@example.com ',
};

describe('programme declarations', () => {
  it('turns biometric inference off for eu + wellbeing only', () => {
    const cases = [
      ['eu', 'wellbeing', 'off'],
      ['eu', 'medical', 'on'],
      ['eu', 'safety', 'on'],
      ['other', 'wellbeing', 'on'],
    ] as const;
    for (const [jurisdiction, purpose, expected] of cases) {
      expect(biometricInference({ jurisdiction, purpose, basis: 'b', contact: 'c@d.e' })).toBe(
        expected,
      );
    }
    expect(biometricInference(null)).toBe('on');
  });

  it('parses a whole declaration, trimmed', () => {
    expect(parseProgramme(VALID)).toEqual({
      jurisdiction: 'eu',
      purpose: 'wellbeing',
      basis: 'GDPR art. 9(2)(a)',
      contact: 'dpo@example.com',
    });
  });

  it('refuses each bad or missing value with its one-line message', () => {
    const refusal = (options: Record<string, string | undefined>) => {
      try {
        parseProgramme(options);
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(refusal({ ...VALID, jurisdiction: 'EU' })).toBe(
      ProgrammeErrors.JurisdictionInvalid('EU'),
    );
    expect(refusal({ ...VALID, purpose: 'hr' })).toBe(ProgrammeErrors.PurposeInvalid('hr'));
    expect(refusal({ ...VALID, basis: '' })).toBe(ProgrammeErrors.BasisInvalid);
    expect(refusal({ ...VALID, basis: 'a\u202eb' })).toBe(ProgrammeErrors.BasisInvalid);
    expect(refusal({ ...VALID, basis: 'x'.repeat(501) })).toBe(ProgrammeErrors.BasisInvalid);
    expect(refusal({ ...VALID, basis: 'x'.repeat(500) })).toBe('accepted');
    expect(refusal({ ...VALID, contact: 'Dpo <dpo@example.com>' })).toBe(
      ProgrammeErrors.ContactInvalid('Dpo <dpo@example.com>'),
    );
    expect(refusal({ ...VALID, purpose: undefined })).toBe(ProgrammeErrors.Missing('--purpose'));
    for (const message of Object.values(ProgrammeErrors)) {
      const text = typeof message === 'function' ? message('x') : message;
      expect(text).not.toContain('\n');
    }
  });

  it('records who declared: --by, else the account', () => {
    expect(parseDeclaredBy(undefined, 'ops')).toBe('ops');
    expect(parseDeclaredBy(' alice ', 'ops')).toBe('alice');
    expect(() => parseDeclaredBy('', 'ops')).toThrow(ProgrammeErrors.ByInvalid);
    expect(() => parseDeclaredBy('a\nb', 'ops')).toThrow(ProgrammeErrors.ByInvalid);
  });

  it('counts as word-derived only transcript.* and assessment.* features', () => {
    expect(['transcript.valence', 'assessment.sleep'].every(isWordFeature)).toBe(true);
    expect(['pitch', 'transcript', 'Transcript.x', 'face.transcript.x'].some(isWordFeature)).toBe(
      false,
    );
    expect(wordFeaturesOnly({ pitch: 1, 'transcript.a': 2, 'assessment.b': 3 })).toEqual({
      'transcript.a': 2,
      'assessment.b': 3,
    });
  });
});
