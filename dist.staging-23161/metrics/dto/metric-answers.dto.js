"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.METRIC_ACCURACY_SCHEMAS = exports.METRIC_ANSWER_SCHEMAS = exports.MhciStatsDto = void 0;
const swagger_1 = require("@nestjs/swagger");
const named_schemas_1 = require("../../common/swagger/named-schemas");
/** MHCI statistics of one period (continuous percentiles, as PostgreSQL `percentile_cont`). */
class MhciStatsDto {
    minMhci;
    maxMhci;
    avgMhci;
    percentile25Mhci;
    percentile50Mhci;
    percentile75Mhci;
}
exports.MhciStatsDto = MhciStatsDto;
__decorate([
    (0, swagger_1.ApiProperty)({ example: 31.2 }),
    __metadata("design:type", Number)
], MhciStatsDto.prototype, "minMhci", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: 88.4 }),
    __metadata("design:type", Number)
], MhciStatsDto.prototype, "maxMhci", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: 64.07 }),
    __metadata("design:type", Number)
], MhciStatsDto.prototype, "avgMhci", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: 55.5 }),
    __metadata("design:type", Number)
], MhciStatsDto.prototype, "percentile25Mhci", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: 64.1 }),
    __metadata("design:type", Number)
], MhciStatsDto.prototype, "percentile50Mhci", void 0);
__decorate([
    (0, swagger_1.ApiProperty)({ example: 73.9 }),
    __metadata("design:type", Number)
], MhciStatsDto.prototype, "percentile75Mhci", void 0);
const PERIODS = 'Without groupBy the one key is `all`; with groupBy there is one key per period that has ' +
    "sessions (day `YYYY-MM-DD`, the ISO week's Monday `YYYY-MM-DD`, month `YYYY-MM`).";
/** An answer keyed by period (`all`, or one key per period), each value `value`. */
const byPeriod = (value, description, example) => ({
    description: `${description} ${PERIODS}`,
    type: 'object',
    properties: { all: value },
    additionalProperties: value,
    example,
});
/**
 * `null` in OpenAPI 3.0 (docs/integrating.md): `nullable` lets its own schema's `type` take null,
 * so `nullable` beside an `allOf` of a reference does not make the reference nullable (strict
 * tools drop the null). One of the statistics or a schema that accepts null alone does; the typed
 * client has it as `MhciStatsDto | null` (scripts/openapi.js).
 */
const NULL = { type: 'object', nullable: true, enum: [null] };
const MHCI_STATS_OR_NULL = {
    oneOf: [{ $ref: (0, swagger_1.getSchemaPath)(MhciStatsDto) }, NULL],
};
const WORD_SHARES = { type: 'object', additionalProperties: { type: 'number' } };
/**
 * The OpenAPI schemas of the answers, one named schema per shape (docs/integrating.md: a generated client
 * knows that `count` answers numbers and `mhci` statistics). A group's `mhci` and `wordcloud`
 * can be `null` (a period under the privacy floor, or no sessions at all); a participant's
 * `mhci` is `null` without sessions, and a participant's word cloud is never `null` (`{}`).
 */
exports.METRIC_ANSWER_SCHEMAS = {
    count: (0, named_schemas_1.namedSchema)('CountAnswer', byPeriod({ type: 'integer', minimum: 0 }, 'Sessions per period.', { all: 42 })),
    groupMhci: (0, named_schemas_1.namedSchema)('GroupMhciAnswer', byPeriod(MHCI_STATS_OR_NULL, 'MHCI statistics per period, from differentially private releases of calendar windows ' +
        '(docs/metrics.md); `null` for a period finer than the window, not released yet, with ' +
        'too few participants or a margin above maxMargin, and for a range without sessions.', {
        all: {
            minMhci: 31.2,
            maxMhci: 88.4,
            avgMhci: 64.07,
            percentile25Mhci: 55.5,
            percentile50Mhci: 64.1,
            percentile75Mhci: 73.9,
        },
    })),
    participantMhci: (0, named_schemas_1.namedSchema)('ParticipantMhciAnswer', byPeriod(MHCI_STATS_OR_NULL, 'MHCI statistics per period of the sessions the participant shares at that level; ' +
        '`null` when there are none.', { all: null })),
    groupWordcloud: (0, named_schemas_1.namedSchema)('GroupWordcloudAnswer', byPeriod({ ...WORD_SHARES, nullable: true }, "Each word's share of the released speaker counts, per period; `{}` when no word had " +
        'enough speakers; `null` for a period finer than the window, not released yet, with too ' +
        'few participants or no window large enough for a word to pass, and for a range without ' +
        'sessions.', { all: { tired: 0.12, sleep: 0.08 } })),
    participantWordcloud: (0, named_schemas_1.namedSchema)('ParticipantWordcloudAnswer', byPeriod(WORD_SHARES, "Each word's share of the participant's counted words, per period.", {
        all: { walking: 0.25, calmer: 0.25 },
    })),
};
/** [low, high]: a 95 % interval (docs/metrics.md, "Every answer says what it is worth"). */
const INTERVAL = {
    type: 'array',
    items: { type: 'number' },
    minItems: 2,
    maxItems: 2,
    example: [58.1, 62.3],
};
const WITHHELD_REASONS = [
    'finer-than-window',
    'not-released-yet',
    'too-few-participants',
    'margin-above-bound',
    'too-small-for-words',
];
/** What every accuracy object says. */
const RELEASE_ACCURACY = {
    participants: {
        type: 'integer',
        minimum: 0,
        description: 'Participants behind the answer, summed over the windows merged.',
    },
    windows: { type: 'integer', minimum: 0, description: 'Released windows merged.' },
    windowsNotReleased: {
        type: 'integer',
        minimum: 0,
        description: 'Windows of the period still waiting for their release (end + grace period).',
    },
    legacyCells: {
        type: 'integer',
        minimum: 0,
        description: 'Cells released by the second version (before calendar windows) merged.',
    },
    resultsLeftOut: {
        type: 'integer',
        minimum: 0,
        description: "The group's results in the merged windows that are in no release of it: the " +
            "participant's values went to another group that window, or the accountant left her out.",
    },
    lateResults: {
        type: 'integer',
        minimum: 0,
        description: 'Results that arrived after their window was released (they join no release).',
    },
    rho: {
        type: 'number',
        description: 'zCDP ρ a participant in every merged release spent on this answer.',
    },
    budgetShare: {
        type: 'number',
        description: "That spend as a share of the participant's yearly budget (ρ_year).",
    },
    epsilon: {
        type: 'number',
        description: 'The ε (at δ = 10⁻⁶) that spend alone amounts to.',
    },
    reason: {
        type: 'string',
        nullable: true,
        enum: [...WITHHELD_REASONS, null],
        description: 'Why the value is null; null when it is not.',
    },
};
const MHCI_FIELDS = [
    'minMhci',
    'maxMhci',
    'avgMhci',
    'percentile25Mhci',
    'percentile50Mhci',
    'percentile75Mhci',
];
const MHCI_ACCURACY = (0, named_schemas_1.namedSchema)('GroupMhciAccuracy', {
    type: 'object',
    required: [...Object.keys(RELEASE_ACCURACY), 'margin', 'maxMargin', 'intervals'],
    properties: {
        ...RELEASE_ACCURACY,
        margin: {
            type: 'number',
            nullable: true,
            description: 'The 95 % margin of avgMhci, in points (null without a release).',
        },
        maxMargin: {
            type: 'number',
            description: "The operator's bound: a wider margin withholds the answer.",
        },
        intervals: {
            type: 'object',
            nullable: true,
            description: 'A 95 % interval for each number (minMhci and maxMhci: the 5th and 95th percentiles).',
            required: MHCI_FIELDS,
            properties: Object.fromEntries(MHCI_FIELDS.map((field) => [field, INTERVAL])),
        },
    },
});
const WORDCLOUD_ACCURACY = (0, named_schemas_1.namedSchema)('GroupWordcloudAccuracy', {
    type: 'object',
    required: [...Object.keys(RELEASE_ACCURACY), 'speakersNeeded', 'intervals'],
    properties: {
        ...RELEASE_ACCURACY,
        speakersNeeded: {
            type: 'integer',
            nullable: true,
            description: 'The noisy count of speakers a word had to reach to show.',
        },
        intervals: {
            type: 'object',
            nullable: true,
            description: "A 95 % interval for each shown word's count of speakers.",
            additionalProperties: INTERVAL,
        },
    },
});
/** Group mhci and wordcloud with `accuracy=true`: each period `{value, accuracy}`. */
exports.METRIC_ACCURACY_SCHEMAS = {
    groupMhci: (0, named_schemas_1.namedSchema)('GroupMhciAnswerWithAccuracy', byPeriod({
        type: 'object',
        required: ['value', 'accuracy'],
        properties: { value: MHCI_STATS_OR_NULL, accuracy: MHCI_ACCURACY },
    }, 'With accuracy=true: per period, the value (as without it) and what it is worth.', {
        all: {
            value: {
                minMhci: 31.2,
                maxMhci: 88.4,
                avgMhci: 64.07,
                percentile25Mhci: 55.5,
                percentile50Mhci: 64.1,
                percentile75Mhci: 73.9,
            },
            accuracy: {
                participants: 212,
                windows: 1,
                windowsNotReleased: 0,
                legacyCells: 0,
                resultsLeftOut: 3,
                lateResults: 0,
                rho: 0.239,
                budgetShare: 0.041667,
                epsilon: 3.8725,
                reason: null,
                margin: 1.89,
                maxMargin: 10,
                intervals: {
                    minMhci: [25, 40],
                    maxMhci: [85, 95],
                    avgMhci: [62.18, 65.96],
                    percentile25Mhci: [50, 60],
                    percentile50Mhci: [60, 70],
                    percentile75Mhci: [70, 80],
                },
            },
        },
    })),
    groupWordcloud: (0, named_schemas_1.namedSchema)('GroupWordcloudAnswerWithAccuracy', byPeriod({
        type: 'object',
        required: ['value', 'accuracy'],
        properties: {
            value: { ...WORD_SHARES, nullable: true },
            accuracy: WORDCLOUD_ACCURACY,
        },
    }, 'With accuracy=true: per period, the value (as without it) and what it is worth.', {
        all: {
            value: null,
            accuracy: {
                participants: 40,
                windows: 1,
                windowsNotReleased: 0,
                legacyCells: 0,
                resultsLeftOut: 0,
                lateResults: 0,
                rho: 0.239,
                budgetShare: 0.041667,
                epsilon: 3.8725,
                reason: 'too-small-for-words',
                speakersNeeded: 55,
                intervals: null,
            },
        },
    })),
};
//# sourceMappingURL=metric-answers.dto.js.map