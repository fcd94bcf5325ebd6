/**
 * An enterprise's declared programme (docs/compliance.md): where it runs check-ins and why, and
 * what follows for the check-in. Under the EU AI Act, inferring the emotions of a person at work
 * from biometric data is prohibited except for medical or safety reasons (art. 5(1)(f)): a
 * programme declared `eu` for `wellbeing` turns biometric inference off.
 */
import { plainEmailAddress } from '../../common/validation/email-address';

export const JURISDICTIONS = ['eu', 'other'] as const;
export const PURPOSES = ['wellbeing', 'medical', 'safety'] as const;
export type Jurisdiction = (typeof JURISDICTIONS)[number];
export type Purpose = (typeof PURPOSES)[number];

/** The longest legal basis an operator may type (a sentence or two, and a reference). */
export const BASIS_MAX_LENGTH = 500;

export interface Programme {
  jurisdiction: Jurisdiction;
  purpose: Purpose;
  /** The legal basis, as the enterprise states it (e.g. "GDPR art. 9(2)(a), explicit consent"). */
  basis: string;
  /** Where a participant or an authority writes about the programme (an email address). */
  contact: string;
}

/** A programme as recorded: who declared it and when. */
export interface ProgrammeDeclaration extends Programme {
  declaredAt: Date;
  declaredBy: string;
}

/**
 * Whether the check-in may infer from voice and face: off where the declaration is `eu` with
 * purpose `wellbeing`; on otherwise, and for an enterprise that declared nothing (as before
 * declarations existed).
 */
export const biometricInference = (programme: Programme | null): 'on' | 'off' =>
  programme?.jurisdiction === 'eu' && programme.purpose === 'wellbeing' ? 'off' : 'on';

/** The subscores inferred from biometric data (the participant's voice and face). */
export const BIOMETRIC_SUBSCORES = ['vision', 'audio'] as const;

/**
 * Features the engine derives from the participant's own words and answers carry these
 * prefixes; every other feature is taken to come from her voice or face (the engine names them
 * so, docs/checkin-flow.md; a name we cannot place counts as biometric).
 */
export const WORD_FEATURE_PREFIXES = ['transcript.', 'assessment.'] as const;

export const isWordFeature = (name: string): boolean =>
  WORD_FEATURE_PREFIXES.some((prefix) => name.startsWith(prefix));

/** A map of feature names (features, percentiles) without the biometric ones. */
export function wordFeaturesOnly<T>(map: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(map).filter(([name]) => isWordFeature(name)));
}

/** enterprises:set-programme's options, as typed. */
export interface ProgrammeOptions {
  jurisdiction?: string;
  purpose?: string;
  basis?: string;
  contact?: string;
}

export const ProgrammeErrors = {
  Missing: (option: string) =>
    `Give ${option}: a declaration names --jurisdiction eu|other, --purpose wellbeing|medical|safety, --basis "<text>" and --contact <email>`,
  JurisdictionInvalid: (value: string) =>
    `--jurisdiction must be eu or other, not ${JSON.stringify(value)}`,
  PurposeInvalid: (value: string) =>
    `--purpose must be wellbeing, medical or safety, not ${JSON.stringify(value)}`,
  BasisInvalid: `--basis must be 1 to ${BASIS_MAX_LENGTH} characters of text on one line`,
  ContactInvalid: (value: string) =>
    `--contact must be an email address, not ${JSON.stringify(value)}`,
  ByInvalid: '--by must be 1 to 100 characters on one line',
} as const;

const ONE_LINE = /^[^\p{Cc}\p{Cf}\u2028\u2029]+$/u;

/** The declaration the operator typed, checked; throws a one-line refusal for a bad value. */
export function parseProgramme(options: ProgrammeOptions): Programme {
  for (const name of ['jurisdiction', 'purpose', 'basis', 'contact'] as const) {
    if (options[name] === undefined) throw new Error(ProgrammeErrors.Missing(`--${name}`));
  }
  const { jurisdiction, purpose } = options as Required<ProgrammeOptions>;
  if (!(JURISDICTIONS as readonly string[]).includes(jurisdiction)) {
    throw new Error(ProgrammeErrors.JurisdictionInvalid(jurisdiction));
  }
  if (!(PURPOSES as readonly string[]).includes(purpose)) {
    throw new Error(ProgrammeErrors.PurposeInvalid(purpose));
  }
  const basis = (options.basis ?? '').trim();
  if (basis.length === 0 || basis.length > BASIS_MAX_LENGTH || !ONE_LINE.test(basis)) {
    throw new Error(ProgrammeErrors.BasisInvalid);
  }
  const contact = plainEmailAddress((options.contact ?? '').trim());
  if (contact === null) throw new Error(ProgrammeErrors.ContactInvalid(options.contact ?? ''));
  return {
    jurisdiction: jurisdiction as Jurisdiction,
    purpose: purpose as Purpose,
    basis,
    contact,
  };
}

/** Who declared, as recorded in the ledger: `--by`, else the operating-system account. */
export function parseDeclaredBy(value: string | undefined, account: string): string {
  const by = (value ?? account).trim();
  if (by.length === 0 || by.length > 100 || !ONE_LINE.test(by)) {
    throw new Error(ProgrammeErrors.ByInvalid);
  }
  return by;
}

/**
 * SQL: whether the enterprise row aliased `alias` lets the engine infer from voice and face now
 * (biometricInference's rule, for queries that read it with the session).
 */
export const biometricAllowedSql = (alias: string): string =>
  `NOT coalesce(${alias}.programme_jurisdiction = 'eu' AND ${alias}.programme_purpose = 'wellbeing', false)`;
