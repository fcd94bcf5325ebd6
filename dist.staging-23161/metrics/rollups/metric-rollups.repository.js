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
exports.MetricRollupsRepository = exports.APPROXIMATE_BUCKET_SHARE = void 0;
exports.featureValues = featureValues;
const common_1 = require("@nestjs/common");
const database_1 = require("../../database/database");
const feature_buckets_1 = require("./feature-buckets");
/**
 * A bucket holding at most this share of the group is not counted inside: its sessions count
 * half below, an error of at most half this share (docs/performance.md: percentiles within 0.01).
 */
exports.APPROXIMATE_BUCKET_SHARE = 0.02;
function featureValues(features) {
    return Object.keys(features)
        .sort()
        .map((name) => ({ name, value: features[name], bucket: (0, feature_buckets_1.featureBucket)(features[name]) }));
}
/**
 * The feature histograms' and exact value counts' SQL (group percentiles, docs/checkin-flow.md):
 * the values of the sessions shown at level 5, added and taken out by SharedFeatures (its only
 * caller). A writer first takes every group's advisory lock it writes, in group order, for the
 * rest of its transaction ({@link lockGroups}), so writers of one group take turns and writers of
 * several cannot deadlock; the write methods expect those locks held.
 */
let MetricRollupsRepository = class MetricRollupsRepository {
    db;
    constructor(db) {
        this.db = db;
    }
    /**
     * Holds the groups' histograms for the rest of the transaction (taken again, it is a no-op).
     * A transaction that writes several groups' must take them all first, in one call.
     */
    async lockGroups(groupIds, sql) {
        for (const groupId of [...new Set(groupIds)].sort((a, b) => a - b)) {
            await sql.rows(`SELECT pg_advisory_xact_lock(hashtextextended('feature-rollups', $1))`, [
                groupId,
            ]);
        }
    }
    /**
     * Adds a session's features to its group's histograms and exact value counts
     * (docs/checkin-flow.md): tied to no session, so no table keeps one person's values. The
     * group's lock is held.
     */
    async addFeatures(groupId, features, sql) {
        if (features.length === 0)
            return;
        await sql.rows(`WITH histogram AS (
         INSERT INTO group_feature_histograms AS h (group_id, name, bucket, count)
         SELECT $1, name, bucket, 1 FROM unnest($2::text[], $3::int[]) AS f(name, bucket)
         ON CONFLICT (group_id, name, bucket) DO UPDATE SET count = h.count + 1)
       INSERT INTO group_feature_values AS v (group_id, name, value, count)
       SELECT $1, name, value, 1 FROM unnest($2::text[], $4::float8[]) AS f(name, value)
       ON CONFLICT (group_id, name, value) DO UPDATE SET count = v.count + 1`, [
            groupId,
            features.map((f) => f.name),
            features.map((f) => f.bucket),
            features.map((f) => f.value),
        ]);
    }
    /**
     * Mid-rank percentile of each of a new session's features among the group's sessions the
     * histograms count (those shown at level 5, docs/checkin-flow.md) and itself:
     * (below + ½·(equal + 1)) / (counted + 1), in (0, 1); a feature no counted session has is left
     * out. From the histogram: the buckets under the value's bucket count as below. Inside the
     * value's own bucket (about 0.8 % of the value wide) the values are counted exactly while that
     * bucket holds more than {@link APPROXIMATE_BUCKET_SHARE} of the counted sessions (small groups,
     * concentrated values); otherwise half of them count as below, which is off by at most half the
     * bucket's share: ≤ 0.01. So a large group is never scanned: the cost is the feature's number
     * of buckets.
     */
    async groupPercentiles(groupId, features, sql = this.db) {
        if (features.length === 0)
            return {};
        const rows = await sql.rows(`SELECT m.name,
              (CASE WHEN h.here <= $6::numeric * h.total
                    THEN h.below + 0.5 * h.here
                    ELSE h.below + (
                           SELECT coalesce(sum(count) FILTER (WHERE value < m.value), 0)
                                  + 0.5 * coalesce(sum(count) FILTER (WHERE value = m.value), 0)
                             FROM group_feature_values
                            WHERE group_id = $1 AND name = m.name
                              AND value >= m.floor AND value <= m.value)
               END + 0.5)::float8 / (h.total + 1) AS percentile
         FROM unnest($2::text[], $3::float8[], $4::int[], $5::float8[])
                AS m(name, value, bucket, floor)
        CROSS JOIN LATERAL (
              SELECT coalesce(sum(count) FILTER (WHERE bucket < m.bucket), 0) AS below,
                     coalesce(sum(count) FILTER (WHERE bucket = m.bucket), 0) AS here,
                     sum(count) AS total
                FROM group_feature_histograms
               WHERE group_id = $1 AND name = m.name) AS h
        WHERE h.total > 0
        ORDER BY m.name`, [
            groupId,
            features.map((f) => f.name),
            features.map((f) => f.value),
            features.map((f) => f.bucket),
            features.map((f) => (0, feature_buckets_1.bucketFloor)(f.bucket)),
            exports.APPROXIMATE_BUCKET_SHARE,
        ]);
        return Object.fromEntries(rows.map((row) => [row.name, row.percentile]));
    }
    /**
     * Takes feature values (decrypted from their sessions) out of the histograms and exact value
     * counts, in the caller's transaction, the groups' locks held; emptied rows go.
     */
    async forgetFeatureValues(values, sql) {
        if (values.length === 0)
            return;
        await this.subtractHistograms(tally(values, (v) => (0, feature_buckets_1.featureBucket)(v.value)), sql);
        await this.subtractValues(tally(values, (v) => v.value), sql);
    }
    /**
     * Takes counts out of the histograms (emptied buckets go). Table names stay literal, so the
     * ownership check reads them (test/integration/table-ownership.spec.ts).
     */
    async subtractHistograms(counts, sql) {
        if (counts.length === 0)
            return;
        await sql.rows(`WITH mine AS (${MINE('int')}),
       emptied AS (
         DELETE FROM group_feature_histograms t USING mine
          WHERE t.group_id = mine.group_id AND t.name = mine.name AND t.bucket = mine.key
            AND t.count <= mine.count)
       UPDATE group_feature_histograms t SET count = t.count - mine.count
         FROM mine
        WHERE t.group_id = mine.group_id AND t.name = mine.name AND t.bucket = mine.key
          AND t.count > mine.count`, countParams(counts));
    }
    /** Takes counts out of the exact value counts (emptied values go). */
    async subtractValues(counts, sql) {
        if (counts.length === 0)
            return;
        await sql.rows(`WITH mine AS (${MINE('float8')}),
       emptied AS (
         DELETE FROM group_feature_values t USING mine
          WHERE t.group_id = mine.group_id AND t.name = mine.name AND t.value = mine.key
            AND t.count <= mine.count)
       UPDATE group_feature_values t SET count = t.count - mine.count
         FROM mine
        WHERE t.group_id = mine.group_id AND t.name = mine.name AND t.value = mine.key
          AND t.count > mine.count`, countParams(counts));
    }
};
exports.MetricRollupsRepository = MetricRollupsRepository;
exports.MetricRollupsRepository = MetricRollupsRepository = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database])
], MetricRollupsRepository);
/** The counts to subtract as a relation (group_id, name, key, count); its key of `type`. */
const MINE = (type) => `SELECT * FROM unnest($1::bigint[], $2::text[], $3::${type}[], $4::int[])
            AS m(group_id, name, key, count)`;
const countParams = (counts) => [
    counts.map((c) => c.groupId),
    counts.map((c) => c.name),
    counts.map((c) => c.key),
    counts.map((c) => c.count),
];
/** How many of the values share a (group, feature, key), sorted by them: the lock order. */
function tally(values, keyOf) {
    const counts = new Map();
    for (const value of values) {
        const key = keyOf(value);
        const id = `${value.groupId}\u0000${value.name}\u0000${key}`;
        const entry = counts.get(id) ?? { groupId: value.groupId, name: value.name, key, count: 0 };
        entry.count++;
        counts.set(id, entry);
    }
    return [...counts.values()].sort((a, b) => a.groupId - b.groupId || (a.name < b.name ? -1 : a.name > b.name ? 1 : a.key - b.key));
}
//# sourceMappingURL=metric-rollups.repository.js.map