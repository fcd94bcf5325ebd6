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
 * What group metrics guarantee (docs/metrics.md, "Differentially private releases"), in plain
 * words, said in the OpenAPI document of each of the six metric operations.
 */
export const GROUP_METRICS_GUARANTEE =
  `Guarantee: each sealed cell of a group is released once with differential privacy (discrete ` +
  `Laplace noise drawn from crypto and stored; the exact aggregate is never stored), and group ` +
  `mhci and wordcloud are computed from the releases only. So whatever is combined — ranges, ` +
  `periods, reads before and after a change, members the enterprise invented and whose values it ` +
  `knows — changing what one participant scored and said changes the probability of any answer ` +
  `by at most a factor e^ε: at most ε for scores plus ε for words per participant per day ` +
  `(ε = ${EPSILON.default / 100} by default, ${EPSILON.min / 100}–${EPSILON.max / 100}, set per ` +
  `enterprise by the operator). Over a month that adds up to at most 60ε for a participant who ` +
  `checks in every day in a group where every day seals a cell (about 9ε checking in weekly), ` +
  `over a year 730ε (104ε). It does not protect who took part (count and the webhooks tell every ` +
  `completion), nor what a participant's own privacy level shows.`;

/** Sealing and what a period answers, shared by group mhci and wordcloud. */
const SEALED_CELLS =
  `Read from sealed cohort cells, never from live sessions: runs of consecutive closed UTC days ` +
  `of the group's completed sessions that seal once they blend enough participants whose level ` +
  `hides them (the operator's floor), and never change afterwards. A day closes ` +
  `METRICS_SEAL_DELAY_MINUTES (default 60) after it ends, so a check-in reaches group metrics the ` +
  `day after at the earliest. Each period (\`all\`, or each period with groupBy) merges the cells ` +
  `whose last day falls in it and in the range; a period with sessions but no released cell ` +
  `answers \`null\`, so the keys stay those of count.`;

/**
 * The OpenAPI description of group mhci or wordcloud (docs/metrics.md): how the release is made
 * and read, then the guarantee.
 */
export const describeSealedCells = (metric: keyof typeof FLOORED_GROUP_METRICS): string => {
  const release =
    metric === 'mhci'
      ? `Each participant gives a cell one value, the mean of their MHCI there clipped to [0, 100]; ` +
        `the release is their exact count, a noisy sum (3/5 of ε) and a noisy histogram over 10 ` +
        `bins of 10 points (2/5 of ε). avgMhci is the noisy sums over the counts; the quartiles ` +
        `come from the merged histogram projected onto the count; minMhci and maxMhci are the ` +
        `lower edge of the lowest and the upper edge of the highest bin holding at least two ` +
        `standard deviations of the merged noise (the quartiles when none does) — bin edges, ` +
        `never a participant's value. Every value in [0, 100] to the hundredth, min ≤ p25 ≤ p50 ≤ ` +
        `p75 ≤ max; a period with a released cell always answers six numbers.`
      : `Each participant gives a cell at most 3 distinct words (their most frequent there); a ` +
        `word said by at least minWordSpeakers of them is released, with its noisy count of ` +
        `speakers, only past a threshold that lets a word one participant decides through with ` +
        `probability at most δ = 10⁻⁶ ((ε, δ)-differential privacy; about 97 speakers at ε = 1). ` +
        `Shares are released counts over their sum in the merged cells; cells that released no ` +
        `word answer {}.`;
  return `${SEALED_CELLS} ${release} ${GROUP_METRICS_GUARANTEE}`;
};

/** The OpenAPI description of group count. */
export const describeGroupCount = (): string =>
  `Exact and live, never withheld nor noisy: completed sessions per UTC day of completion (the ` +
  `enterprise learns of each from its webhooks anyway). Its keys are the periods group mhci and ` +
  `wordcloud answer. ${GROUP_METRICS_GUARANTEE}`;

/** What a participant's metric reads, said in the OpenAPI document. */
export const describeParticipantMetric = (metric: Metric): string =>
  (metric === 'count'
    ? 'Every completed session of the participant, whatever its privacy level; exact and live.'
    : `Only the participant's sessions whose applicable level (the lower of the session's own ` +
      `level and the participant's level now) is at least ${PARTICIPANT_METRIC_LEVEL[metric]}; ` +
      `read live from those sessions, exact (group cells are not involved): what the ` +
      `participant's level shows, which the group metrics' guarantee does not cover.`) +
  ` ${GROUP_METRICS_GUARANTEE}`;

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
