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
 * The privacy floor of group metrics (docs/metrics.md, "Sealed cohort cells"): a cell of group
 * scores seals once its sessions come from at least `minCohortScores` participants whose level
 * hides their score; a cell of words, `minCohortWords` participants whose level hides their
 * transcript and who said counted words; a word is kept in a cell only when at least
 * `minWordSpeakers` of its participants said it. `count` is never withheld. Only the operator
 * changes a floor; it applies to cells sealed afterwards.
 */
export const PRIVACY_FLOOR = {
  defaultScores: 5,
  defaultWords: 10,
  defaultSpeakers: 3,
  min: 1,
  max: 100,
} as const;

/**
 * The privacy budget of group metrics (docs/metrics.md, "Differentially private releases"): ε,
 * set per enterprise by the operator, spent once per sealed cell on scores and once on words. It
 * is handled as a whole number of hundredths (1 = 100), so every noise scale is a ratio of
 * integers and sampling stays exact (src/metrics/releases/discrete-laplace.ts).
 */
export const EPSILON = {
  /** In hundredths: 0.1 … 10, default 1. */
  min: 10,
  max: 1000,
  default: 100,
} as const;

/** δ of the word releases ((ε, δ)-differential privacy), fixed. */
export const WORD_DELTA = 1e-6;

/** ε as typed (`0.5`, `1`, `2.25`) → hundredths; null unless 0.1–10 with at most two decimals. */
export function parseEpsilon(value: string): number | null {
  const match = /^(\d{1,2})(?:\.(\d{1,2}))?$/.exec(value);
  if (!match) return null;
  const hundredths = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return hundredths >= EPSILON.min && hundredths <= EPSILON.max ? hundredths : null;
}

/** ε (1.5) → hundredths (150). */
export const epsilonHundredths = (epsilon: number): number => Math.round(epsilon * 100);

/** The withheld group metrics and the floor (enterprise column) each one answers to. */
export const FLOORED_GROUP_METRICS = {
  mhci: 'minCohortScores',
  wordcloud: 'minCohortWords',
} as const satisfies Partial<Record<Metric, string>>;

export type PrivacyFloor = {
  minCohortScores: number;
  minCohortWords: number;
  minWordSpeakers: number;
  /** The privacy budget of each released cell (docs/metrics.md), 0.1–10. */
  epsilon: number;
};

/**
 * What the group metrics guarantee (docs/metrics.md, "Sealed cohort cells"), said in the OpenAPI
 * document of each metric operation.
 */
export const describeSealedCells = (metric: keyof typeof FLOORED_GROUP_METRICS): string => {
  const what = metric === 'mhci' ? 'scores' : 'words';
  const hidden =
    metric === 'mhci'
      ? `minCohortScores (default ${PRIVACY_FLOOR.defaultScores}) participants whose level hides their score`
      : `minCohortWords (default ${PRIVACY_FLOOR.defaultWords}) participants whose level hides their ` +
        `transcript, and holds only words said by at least minWordSpeakers (default ` +
        `${PRIVACY_FLOOR.defaultSpeakers}) of its participants`;
  return (
    `Read from sealed cohort cells, never from live sessions. A cell is a run of consecutive ` +
    `closed UTC days of the group's completed sessions; it seals once it blends at least ${hidden}, ` +
    `and never changes afterwards (not with later results, level changes, erasure or retention). ` +
    `Each period (\`all\`, or each period with groupBy) is the union of the cells whose last day ` +
    `falls in it and in the range; a period with sessions but no sealed cell answers \`null\`, ` +
    `so the keys stay those of count. Guarantee: any two answers, for any ranges and periods, at ` +
    `any times, differ by whole cells, so no subtraction isolates fewer than that many hidden ` +
    `participants. A check-in reaches group ${what} once its cell seals: a day closes ` +
    `METRICS_SEAL_DELAY_MINUTES (default 60) after it ends, so the day after at the earliest, ` +
    `later in a quiet group. Residual risk: a participant who later raises the level of ` +
    `check-ins in a sealed cell (only from the browser that did them) reveals their own share of ` +
    `it. The floor is set by the operator, not through the API.`
  );
};

/** What a participant's metric reads, said in the OpenAPI document. */
export const describeParticipantMetric = (metric: Metric): string =>
  metric === 'count'
    ? 'Every completed session of the participant, whatever its privacy level; exact and live.'
    : `Only the participant's sessions whose applicable level (the lower of the session's own ` +
      `level and the participant's level now) is at least ${PARTICIPANT_METRIC_LEVEL[metric]}; ` +
      `read live from those sessions (group cells are not involved).`;

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

// What each level lets the organisation see, in plain words, is in the message catalogues
// (`levelText<n>`, `levelInWords<n>`: src/common/i18n/catalogues, docs/i18n.md), in every language.

/** For API documentation: `mhci = 1, groupPerecntiles = 2, …`. */
export const describeRequestableLevels = (): string =>
  PRIVACY_NAMES.map((name, index) => `${name} = ${index + 1}`).join(', ');

/** For API documentation: `Level 0: externalID, …; 1: + mhci, subscores; …`. */
export const describeSessionFields = (): string =>
  SESSION_FIELDS_BY_LEVEL.map((fields, level) =>
    level === 0 ? `Level 0: ${fields.join(', ')}` : `${level}: + ${fields.join(', ')}`,
  ).join('; ');
