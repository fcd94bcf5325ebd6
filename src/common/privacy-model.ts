/**
 * The privacy model (docs/privacy.md, docs/metrics.md): the one place that says which requestable name is
 * which level, which fields of a session each level reveals, which level each participant metric
 * needs, and how each level is described to people. Session views, metric gating, the database
 * constraints, the participant pages, the emails and the OpenAPI descriptions all read it.
 *
 * A participant's level (0–5, default 0 = anonymised) is theirs alone; enterprises only request
 * one. Levels are cumulative: level n reveals everything of the levels below it.
 */

/** The spec's requestable names, in level order: `mhci` = 1 … `features` = 5 (spec spelling). */
export const PRIVACY_NAMES = [
  'mhci',
  'groupPerecntiles',
  'userPercentiles',
  'transcript',
  'features',
] as const;

export type PrivacyName = (typeof PRIVACY_NAMES)[number];

export const MIN_PRIVACY_LEVEL = 0;
export const MAX_PRIVACY_LEVEL = PRIVACY_NAMES.length;

/** Every level, lowest first. */
export const PRIVACY_LEVELS: readonly number[] = Array.from(
  { length: MAX_PRIVACY_LEVEL - MIN_PRIVACY_LEVEL + 1 },
  (_, index) => MIN_PRIVACY_LEVEL + index,
);

/**
 * The fields of the Session resource each level adds, in answer order (index = level). Level 0
 * is what an enterprise always sees: that the check-in happened.
 */
export const SESSION_FIELDS_BY_LEVEL = [
  ['externalID', 'sessionID', 'timestamp', 'groupID', 'version'],
  ['mhci', 'subscores'],
  ['groupPercentiles'],
  ['userPercentiles'],
  ['transcript'],
  ['features'],
] as const;

export type SessionField = (typeof SESSION_FIELDS_BY_LEVEL)[number][number];

const FIELDS_AT_LEVEL: readonly (readonly SessionField[])[] = SESSION_FIELDS_BY_LEVEL.map(
  (_, level) => SESSION_FIELDS_BY_LEVEL.slice(0, level + 1).flat(),
);

/** The fields a session shows at `level`, in answer order. */
export const sessionFieldsAt = (level: number): readonly SessionField[] =>
  FIELDS_AT_LEVEL[Math.min(Math.max(level, MIN_PRIVACY_LEVEL), MAX_PRIVACY_LEVEL)];

/** The lowest level that reveals `field`. */
export const levelRevealing = (field: SessionField): number =>
  SESSION_FIELDS_BY_LEVEL.findIndex((fields) => (fields as readonly string[]).includes(field));

/** The metrics of groups and participants (docs/metrics.md). */
export const METRICS = ['count', 'mhci', 'wordcloud'] as const;
export type Metric = (typeof METRICS)[number];

/**
 * Participant metrics use only sessions whose membership level (now) reveals what the metric
 * aggregates: `count` every session, `mhci` those that show the score, `wordcloud` those that
 * show the transcript. Group metrics are anonymised aggregates instead (docs/metrics.md).
 */
export const PARTICIPANT_METRIC_LEVEL: Readonly<Record<Metric, number>> = {
  count: MIN_PRIVACY_LEVEL,
  mhci: levelRevealing('mhci'),
  wordcloud: levelRevealing('transcript'),
};

/**
 * The privacy floor of group metrics (docs/metrics.md): a bucket of a group metric is answered only
 * when its sessions come from at least this many distinct participants, else `null`. Scores
 * (`mhci`) and words (`wordcloud`, counted in participants whose words are in the bucket) have
 * their own floor per enterprise; `count` is never withheld. Only the operator changes a floor.
 */
export const PRIVACY_FLOOR = {
  defaultScores: 5,
  defaultWords: 10,
  min: 1,
  max: 100,
} as const;

/** The withheld group metrics and the floor (enterprise column) each one answers to. */
export const FLOORED_GROUP_METRICS = {
  mhci: 'minCohortScores',
  wordcloud: 'minCohortWords',
} as const satisfies Partial<Record<Metric, string>>;

export type PrivacyFloor = { minCohortScores: number; minCohortWords: number };

/** Why a group metric's bucket can be `null`: said in the OpenAPI document and docs/metrics.md. */
export const describePrivacyFloor = (metric: keyof typeof FLOORED_GROUP_METRICS): string =>
  `Privacy floor: a bucket (\`all\`, or each period with groupBy) whose completed sessions come ` +
  `from fewer distinct participants than the enterprise's ${FLOORED_GROUP_METRICS[metric]} ` +
  `(default ${metric === 'mhci' ? PRIVACY_FLOOR.defaultScores : PRIVACY_FLOOR.defaultWords}` +
  `${metric === 'wordcloud' ? ', counting participants whose words are in the bucket' : ''}) ` +
  `answers \`null\`; with groupBy the period keeps its key, so it stays aligned with count ` +
  '(never withheld). Why: no answer may single out a participant, whatever range is asked ' +
  '(a day with one check-in would otherwise show that person). The floor is set by the ' +
  'operator, not through the API. Known limit: it bounds what one answer shows; differences ' +
  'between overlapping ranges can still narrow a group down.';

/** The level an array of requested names stands for: the highest it names (`[]` = 0). */
export function levelOfNames(names: readonly string[] | null | undefined): number {
  let level = MIN_PRIVACY_LEVEL;
  for (const name of names ?? []) {
    level = Math.max(level, PRIVACY_NAMES.indexOf(name as PrivacyName) + 1);
  }
  return level;
}

/**
 * The level asked of one member: the participant's own request when there is one (null = none,
 * while `[]` is a request withdrawn to level 0), otherwise the group's.
 */
export function requestedPrivacyLevel(
  participantRequest: readonly string[] | null,
  groupRequest: readonly string[] | null,
): number {
  return levelOfNames(participantRequest ?? groupRequest);
}

/** Deduplicated, in canonical (level) order. */
export function canonicalNames(names: readonly string[]): PrivacyName[] {
  return PRIVACY_NAMES.filter((name) => names.includes(name));
}

export const isPrivacyNameArray = (value: unknown): value is string[] =>
  Array.isArray(value) &&
  value.every(
    (item) => typeof item === 'string' && (PRIVACY_NAMES as readonly string[]).includes(item),
  );

/** The database constraint on `requested_privacy` columns: only the names above. */
export const PRIVACY_NAMES_CHECK = `(requested_privacy <@ ARRAY[${PRIVACY_NAMES.map((name) => `'${name}'::text`).join(', ')}])`;

/** What each level lets the organisation see, in plain words (index = level): pages and emails. */
export const PRIVACY_LEVEL_TEXTS: readonly string[] = [
  'Nothing but the fact that you checked in.',
  'Your MHCI score (an overall wellbeing score) and its subscores.',
  'Your MHCI score and subscores, and how you compare with your group.',
  'All of level 2, and how you compare with your own past check-ins.',
  'All of level 3, and the transcript of your check-in conversation.',
  'All of level 4, and the detailed voice and video features measured during your check-in.',
];

/** A level's text continuing a sentence ("…: all of level 3, and the transcript of …."). */
export function levelInWords(level: number): string {
  const text = PRIVACY_LEVEL_TEXTS[level] ?? PRIVACY_LEVEL_TEXTS[MIN_PRIVACY_LEVEL];
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** For API documentation: `mhci = 1, groupPerecntiles = 2, …`. */
export const describeRequestableLevels = (): string =>
  PRIVACY_NAMES.map((name, index) => `${name} = ${index + 1}`).join(', ');

/** For API documentation: `Level 0: externalID, …; 1: + mhci, subscores; …`. */
export const describeSessionFields = (): string =>
  SESSION_FIELDS_BY_LEVEL.map((fields, level) =>
    level === 0 ? `Level 0: ${fields.join(', ')}` : `${level}: + ${fields.join(', ')}`,
  ).join('; ');
