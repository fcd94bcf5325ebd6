"use strict";
/**
 * The privacy model (docs/privacy.md, docs/metrics.md): the one place that says which requestable name is
 * which level, which fields of a session each level reveals, which level each participant metric
 * needs, and how each level is described to people. Session views, metric gating, the database
 * constraints, the participant pages, the emails and the OpenAPI descriptions all read it.
 *
 * A participant's level (0–5, default 0 = anonymised) is theirs alone; enterprises only request
 * one. Levels are cumulative: level n reveals everything of the levels below it.
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.describeSessionFields = exports.describeRequestableLevels = exports.PRIVACY_NAMES_CHECK = exports.isPrivacyNameArray = exports.describeParticipantMetric = exports.describeGroupCount = exports.describeSealedCells = exports.GROUP_METRICS_GUARANTEE = exports.FLOORED_GROUP_METRICS = exports.WORD_DELTA = exports.METRICS_BUDGET = exports.PRIVACY_FLOOR = exports.PARTICIPANT_METRIC_LEVEL = exports.METRICS = exports.levelRevealing = exports.sessionFieldsAt = exports.SESSION_FIELDS_BY_LEVEL = exports.PRIVACY_LEVELS = exports.MAX_PRIVACY_LEVEL = exports.MIN_PRIVACY_LEVEL = exports.PRIVACY_NAMES = void 0;
exports.parseBudgetNumber = parseBudgetNumber;
exports.levelOfNames = levelOfNames;
exports.requestedPrivacyLevel = requestedPrivacyLevel;
exports.canonicalNames = canonicalNames;
/** The spec's requestable names, in level order: `mhci` = 1 … `features` = 5 (spec spelling). */
exports.PRIVACY_NAMES = [
    'mhci',
    'groupPerecntiles',
    'userPercentiles',
    'transcript',
    'features',
];
exports.MIN_PRIVACY_LEVEL = 0;
exports.MAX_PRIVACY_LEVEL = exports.PRIVACY_NAMES.length;
/** Every level, lowest first. */
exports.PRIVACY_LEVELS = Array.from({ length: exports.MAX_PRIVACY_LEVEL - exports.MIN_PRIVACY_LEVEL + 1 }, (_, index) => exports.MIN_PRIVACY_LEVEL + index);
/**
 * The fields of the Session resource each level adds, in answer order (index = level). Level 0
 * is what an enterprise always sees: that the check-in happened.
 */
exports.SESSION_FIELDS_BY_LEVEL = [
    ['externalID', 'sessionID', 'timestamp', 'groupID', 'version'],
    ['mhci', 'subscores'],
    ['groupPercentiles'],
    ['userPercentiles'],
    ['transcript'],
    ['features'],
];
const FIELDS_AT_LEVEL = exports.SESSION_FIELDS_BY_LEVEL.map((_, level) => exports.SESSION_FIELDS_BY_LEVEL.slice(0, level + 1).flat());
/** The fields a session shows at `level`, in answer order. */
const sessionFieldsAt = (level) => FIELDS_AT_LEVEL[Math.min(Math.max(level, exports.MIN_PRIVACY_LEVEL), exports.MAX_PRIVACY_LEVEL)];
exports.sessionFieldsAt = sessionFieldsAt;
/** The lowest level that reveals `field`. */
const levelRevealing = (field) => exports.SESSION_FIELDS_BY_LEVEL.findIndex((fields) => fields.includes(field));
exports.levelRevealing = levelRevealing;
/** The metrics of groups and participants (docs/metrics.md). */
exports.METRICS = ['count', 'mhci', 'wordcloud'];
/**
 * Participant metrics use only sessions whose membership level (now) reveals what the metric
 * aggregates: `count` every session, `mhci` those that show the score, `wordcloud` those that
 * show the transcript. Group metrics are anonymised aggregates instead (docs/metrics.md).
 */
exports.PARTICIPANT_METRIC_LEVEL = {
    count: exports.MIN_PRIVACY_LEVEL,
    mhci: (0, exports.levelRevealing)('mhci'),
    wordcloud: (0, exports.levelRevealing)('transcript'),
};
/**
 * The privacy floor of group metrics (docs/metrics.md, "Release windows"): a window releases a
 * group's scores when at least `minCohortScores` participants entered it, its words when at least
 * `minCohortWords` did; a word is a candidate only when at least `minWordSpeakers` of them said
 * it. `count` is never withheld. Only the operator changes a floor; it applies from the next
 * release.
 */
exports.PRIVACY_FLOOR = {
    defaultScores: 5,
    defaultWords: 10,
    defaultSpeakers: 3,
    min: 1,
    max: 100,
};
/**
 * The yearly privacy budget of group metrics per participant (docs/metrics.md, "The budget"):
 * ε_year, 1–100 with at most two decimals (default 24), and the widest 95 % margin of `avgMhci`
 * an answer may have before it is withheld (`maxMargin`, 1–100 points, default 10). Set per
 * enterprise by the operator with the release window (`month` or ISO `week`).
 */
exports.METRICS_BUDGET = {
    defaultEpsilonYear: 24,
    defaultMaxMargin: 10,
    defaultWindow: 'month',
    min: 1,
    max: 100,
};
/** δ of the second version's word cells ((ε, δ)-differential privacy), fixed. */
exports.WORD_DELTA = 1e-6;
/** A number as typed (`24`, `12.5`): null unless `min`–`max` with at most two decimals. */
function parseBudgetNumber(value, min, max) {
    const match = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(value);
    if (!match)
        return null;
    const n = Number(value);
    return n >= min && n <= max ? n : null;
}
/** The withheld group metrics and the floor (enterprise column) each one answers to. */
exports.FLOORED_GROUP_METRICS = {
    mhci: 'minCohortScores',
    wordcloud: 'minCohortWords',
};
/**
 * What group metrics guarantee (docs/metrics.md, "The budget"), in plain words, said in the
 * OpenAPI document of each of the six metric operations.
 */
exports.GROUP_METRICS_GUARANTEE = `Guarantee: group mhci and wordcloud are computed only from differentially private releases, ` +
    `one per calendar window (a month, or an ISO week, per enterprise), group and series, each ` +
    `drawn once with noise from crypto and stored (the exact aggregate never is). Whatever is ` +
    `combined — ranges, periods, reads before and after a change, members the enterprise invented ` +
    `and whose values it knows — everything one participant scored and said in all groups of the ` +
    `enterprise over any 365 days is protected by (ε_year, 10⁻⁶)-differential privacy together ` +
    `(ε_year = ${exports.METRICS_BUDGET.defaultEpsilonYear} by default, set per enterprise by the operator): ` +
    `her values enter one group per window, and an accountant leaves her out of a release that ` +
    `would take her over the budget. It does not protect who took part (count and the webhooks ` +
    `tell every completion), nor what a participant's own privacy level shows.`;
/** Windows and what a period answers, shared by group mhci and wordcloud. */
const RELEASE_WINDOWS = `Read from releases, never from live sessions. A window is released once, ` +
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
const describeSealedCells = (metric) => {
    const release = metric === 'mhci'
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
    return `${RELEASE_WINDOWS} ${release} ${exports.GROUP_METRICS_GUARANTEE}`;
};
exports.describeSealedCells = describeSealedCells;
/** The OpenAPI description of group count. */
const describeGroupCount = () => `Exact and live, never withheld nor noisy: completed sessions per UTC day of completion (the ` +
    `enterprise learns of each from its webhooks anyway). Its keys are the periods group mhci and ` +
    `wordcloud answer. ${exports.GROUP_METRICS_GUARANTEE}`;
exports.describeGroupCount = describeGroupCount;
/** What a participant's metric reads, said in the OpenAPI document. */
const describeParticipantMetric = (metric) => (metric === 'count'
    ? 'Every completed session of the participant, whatever its privacy level; exact and live.'
    : `Only the participant's sessions whose applicable level (the lower of the session's own ` +
        `level and the participant's level now) is at least ${exports.PARTICIPANT_METRIC_LEVEL[metric]}; ` +
        `read live from those sessions, exact (group cells are not involved): what the ` +
        `participant's level shows, which the group metrics' guarantee does not cover.`) +
    ` ${exports.GROUP_METRICS_GUARANTEE}`;
exports.describeParticipantMetric = describeParticipantMetric;
/** The level an array of requested names stands for: the highest it names (`[]` = 0). */
function levelOfNames(names) {
    let level = exports.MIN_PRIVACY_LEVEL;
    for (const name of names ?? []) {
        level = Math.max(level, exports.PRIVACY_NAMES.indexOf(name) + 1);
    }
    return level;
}
/**
 * The level asked of one member: the participant's own request when there is one (null = none,
 * while `[]` is a request withdrawn to level 0), otherwise the group's.
 */
function requestedPrivacyLevel(participantRequest, groupRequest) {
    return levelOfNames(participantRequest ?? groupRequest);
}
/** Deduplicated, in canonical (level) order. */
function canonicalNames(names) {
    return exports.PRIVACY_NAMES.filter((name) => names.includes(name));
}
const isPrivacyNameArray = (value) => Array.isArray(value) &&
    value.every((item) => typeof item === 'string' && exports.PRIVACY_NAMES.includes(item));
exports.isPrivacyNameArray = isPrivacyNameArray;
/** The database constraint on `requested_privacy` columns: only the names above. */
exports.PRIVACY_NAMES_CHECK = `(requested_privacy <@ ARRAY[${exports.PRIVACY_NAMES.map((name) => `'${name}'::text`).join(', ')}])`;
// What each level lets the organisation see, in plain words, is in the message catalogues
// (`levelText<n>`, `levelInWords<n>`: src/common/i18n/catalogues, docs/i18n.md), in every language.
/** For API documentation: `mhci = 1, groupPerecntiles = 2, …`. */
const describeRequestableLevels = () => exports.PRIVACY_NAMES.map((name, index) => `${name} = ${index + 1}`).join(', ');
exports.describeRequestableLevels = describeRequestableLevels;
/** For API documentation: `Level 0: externalID, …; 1: + mhci, subscores; …`. */
const describeSessionFields = () => exports.SESSION_FIELDS_BY_LEVEL.map((fields, level) => level === 0 ? `Level 0: ${fields.join(', ')}` : `${level}: + ${fields.join(', ')}`).join('; ');
exports.describeSessionFields = describeSessionFields;
//# sourceMappingURL=privacy-model.js.map