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
exports.EnterpriseEntity = void 0;
const typeorm_1 = require("typeorm");
const privacy_model_1 = require("../common/privacy-model");
const floorRange = (column) => `((${column} >= ${privacy_model_1.PRIVACY_FLOOR.min}) AND (${column} <= ${privacy_model_1.PRIVACY_FLOOR.max}))`;
/** A tenant. Everything an enterprise owns hangs off this row (ON DELETE CASCADE). */
let EnterpriseEntity = class EnterpriseEntity {
    id;
    name;
    createdAt;
    /** Privacy floor of group `mhci` (docs/metrics.md): hidden participants a score cell needs. */
    minCohortScores;
    /** Privacy floor of group `wordcloud`: participants a window's release of words needs. */
    minCohortWords;
    /** A word is a candidate in a release only when at least this many of its participants said it. */
    minWordSpeakers;
    /**
     * The second version's ε per sealed cell (docs/metrics.md, "Upgrade"): no longer read; its
     * cells keep the ε they were released at. The budget is `epsilon_year`.
     */
    epsilon;
    /** Group metrics' release window (docs/metrics.md, "Release windows"): `month` or ISO `week`. */
    metricsWindow;
    /**
     * The yearly budget of group metrics per participant (docs/metrics.md, "The budget"): over any
     * 365 days, every group release of her data together is (ε_year, 10⁻⁶)-differentially private.
     */
    epsilonYear;
    /** An answer whose 95 % margin of `avgMhci` is wider than this many points is withheld. */
    maxMargin;
    /**
     * A sandbox (docs/integrating.md, like a payment API's test mode): its sessions can be completed through
     * `POST /sandbox/sessions/{sessionID}/complete`, and its mails are captured, never sent. Set when
     * the enterprise is created (`enterprises:create --sandbox`, `demo:seed`), never changed.
     */
    sandbox;
};
exports.EnterpriseEntity = EnterpriseEntity;
__decorate([
    (0, typeorm_1.PrimaryGeneratedColumn)('uuid'),
    __metadata("design:type", String)
], EnterpriseEntity.prototype, "id", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'text' }),
    __metadata("design:type", String)
], EnterpriseEntity.prototype, "name", void 0);
__decorate([
    (0, typeorm_1.CreateDateColumn)({ name: 'created_at', type: 'timestamptz' }),
    __metadata("design:type", Date)
], EnterpriseEntity.prototype, "createdAt", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'min_cohort_scores', type: 'smallint', default: privacy_model_1.PRIVACY_FLOOR.defaultScores }),
    __metadata("design:type", Number)
], EnterpriseEntity.prototype, "minCohortScores", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'min_cohort_words', type: 'smallint', default: privacy_model_1.PRIVACY_FLOOR.defaultWords }),
    __metadata("design:type", Number)
], EnterpriseEntity.prototype, "minCohortWords", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'min_word_speakers', type: 'smallint', default: privacy_model_1.PRIVACY_FLOOR.defaultSpeakers }),
    __metadata("design:type", Number)
], EnterpriseEntity.prototype, "minWordSpeakers", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'numeric', precision: 4, scale: 2, default: 1 }),
    __metadata("design:type", String)
], EnterpriseEntity.prototype, "epsilon", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'metrics_window', type: 'text', default: 'month' }),
    __metadata("design:type", String)
], EnterpriseEntity.prototype, "metricsWindow", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'epsilon_year', type: 'numeric', precision: 5, scale: 2, default: 24 }),
    __metadata("design:type", String)
], EnterpriseEntity.prototype, "epsilonYear", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'max_margin', type: 'numeric', precision: 5, scale: 2, default: 10 }),
    __metadata("design:type", String)
], EnterpriseEntity.prototype, "maxMargin", void 0);
__decorate([
    (0, typeorm_1.Column)({ type: 'boolean', default: false }),
    __metadata("design:type", Boolean)
], EnterpriseEntity.prototype, "sandbox", void 0);
exports.EnterpriseEntity = EnterpriseEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'enterprises' }),
    (0, typeorm_1.Check)('enterprises_name_not_blank', '(length(btrim(name)) > 0)'),
    (0, typeorm_1.Check)('enterprises_min_cohort_scores_range', floorRange('min_cohort_scores')),
    (0, typeorm_1.Check)('enterprises_min_cohort_words_range', floorRange('min_cohort_words')),
    (0, typeorm_1.Check)('enterprises_min_word_speakers_range', floorRange('min_word_speakers')),
    (0, typeorm_1.Check)('enterprises_epsilon_range', '((epsilon >= 0.1) AND (epsilon <= (10)::numeric))'),
    (0, typeorm_1.Check)('enterprises_metrics_window_values', "(metrics_window = ANY (ARRAY['month'::text, 'week'::text]))"),
    (0, typeorm_1.Check)('enterprises_epsilon_year_range', '((epsilon_year >= (1)::numeric) AND (epsilon_year <= (100)::numeric))'),
    (0, typeorm_1.Check)('enterprises_max_margin_range', '((max_margin >= (1)::numeric) AND (max_margin <= (100)::numeric))')
], EnterpriseEntity);
//# sourceMappingURL=enterprise.entity.js.map