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
 * The privacy floor of group metrics (docs/metrics.md, "Release windows"): a window releases a
 * group's scores when at least `minCohortScores` participants entered it, its words when at least
 * `minCohortWords` did; a word is a candidate only when at least `minWordSpeakers` of them said
 * it. `count` is never withheld. Only the operator changes a floor; it applies from the next
 * release.
 */
export const PRIVACY_FLOOR = {
  defaultScores: 5,
  defaultWords: 10,
  defaultSpeakers: 3,
  min: 1,
  max: 100,
} as const;

/**
 * The yearly privacy budget of group metrics per participant (docs/metrics.md, "The budget"):
 * ε_year, 1–100 with at most two decimals (default 24), and the widest 95 % margin of `avgMhci`
 * an answer may have before it is withheld (`maxMargin`, 1–100 points, default 10). Set per
 * enterprise by the operator with the release window (`month` or ISO `week`).
 */
export const METRICS_BUDGET = {
  defaultEpsilonYear: 24,
  defaultMaxMargin: 10,
  defaultWindow: 'month',
  min: 1,
  max: 100,
} as const;

/** δ of the second version's word cells ((ε, δ)-differential privacy), fixed. */
export const WORD_DELTA = 1e-6;

/** A number as typed (`24`, `12.5`): null unless `min`–`max` with at most two decimals. */
export function parseBudgetNumber(value: string, min: number, max: number): number | null {
  const match = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(value);
  if (!match) return null;
  const n = Number(value);
  return n >= min && n <= max ? n : null;
}

/** The withheld group metrics and the floor (enterprise column) each one answers to. */
export const FLOORED_GROUP_METRICS = {
  mhci: 'minCohortScores',
  wordcloud: 'minCohortWords',
} as const satisfies Partial<Record<Metric, string>>;

export type PrivacyFloor = {
  minCohortScores: number;
  minCohortWords: number;
  minWordSpeakers: number;
  /** The yearly budget per participant (docs/metrics.md, "The budget"), 1–100. */
  epsilonYear: number;
  /** The release window: `month` or ISO `week`. */
  metricsWindow: string;
  /** The widest 95 % margin of `avgMhci` an answer may have, in points. */
  maxMargin: number;
};

/**
 * What group metrics guarantee (docs/metrics.md, "The budget"), in plain words, said in the
 * OpenAPI document of each of the six metric operations.
 */
export const GROUP_METRICS_GUARANTEE =
  `Guarantee: group mhci and wordcloud are computed only from differentially private releases, ` +
  `one per calendar window (a month, or an ISO week, per enterprise), group and series, each ` +
  `drawn once with noise from crypto and stored (the exact aggregate never is). Whatever is ` +
  `combined — ranges, periods, reads before and after a change, members the enterprise invented ` +
  `and whose values it knows — everything one participant scored and said in all groups of the ` +
  `enterprise over any 365 days is protected by (ε_year, 10⁻⁶)-differential privacy together ` +
  `(ε_year = ${METRICS_BUDGET.defaultEpsilonYear} by default, set per enterprise by the operator): ` +
  `her values enter one group per window, and an accountant leaves her out of a release that ` +
  `would take her over the budget. It does not protect who took part (count and the webhooks ` +
  `tell every completion), nor what a participant's own privacy level shows.`;

/** Windows and what a period answers, shared by group mhci and wordcloud. */
const RELEASE_WINDOWS =
  `Read from releases, never from live sessions. A window is released once, ` +
  `METRICS_RELEASE_GRACE_HOURS (default 48) after its last UTC day ends, for each group with at ` +
  `least k participants in it (the operator's floor); a result arriving later joins no release. ` +
  `Each period (\`all\`, or each period with groupBy) merges the windows it holds whole (an ISO ` +
  `week belongs to the month of its Thursday) within the range; a period finer than the window ` +
  `(day; week under monthly windows), not released yet, with too few participants or (mhci) ` +
  `whose 95 % margin of avgMhci exceeds the operator's maxMargin answers \`null\`, so the keys ` +
  `stay those of count. accuracy=true answers each period as {value, accuracy}: the ` +
  `participants behind it, the windows merged, results in no release, the budget spent, a 95 % ` +
  `interval for each number, and why a null is null.`;

/**
 * The OpenAPI description of group mhci or wordcloud (docs/metrics.md): how the release is made
 * and read, then the guarantee.
 */
export const describeSealedCells = (metric: keyof typeof FLOORED_GROUP_METRICS): string => {
  const release =
    metric === 'mhci'
      ? `Each participant gives a window one value, the mean of her MHCI there clipped to ` +
        `[0, 100]; the release is the exact count, a noisy sum and a noisy histogram over 20 bins ` +
        `of 5 points (discrete Gaussian noise). avgMhci is the noisy sum over the count; the ` +
        `histogram, projected onto the count and tilted until its mean is avgMhci, gives the ` +
        `quartiles, and minMhci and maxMhci as its 5th and 95th percentiles: one distribution, ` +
        `never a participant's value. Every value in [0, 100] to the hundredth, min ≤ p25 ≤ p50 ≤ ` +
        `p75 ≤ max and min ≤ avg ≤ max.`
      : `Each participant gives a window her most frequent word; a word said by at least ` +
        `minWordSpeakers of them is released, with its noisy count of speakers, only past a ` +
        `threshold that lets a word one participant decides through with probability at most ` +
        `its δ (accuracy.speakersNeeded). Shares are released counts over their sum in the ` +
        `merged windows; {} when no word had enough speakers, null when no window was large ` +
        `enough for any word to pass.`;
  return `${RELEASE_WINDOWS} ${release} ${GROUP_METRICS_GUARANTEE}`;
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
