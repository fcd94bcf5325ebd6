"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.BUCKET_SHIFT = void 0;
exports.featureBucket = featureBucket;
exports.bucketFloor = bucketFloor;
/**
 * Histogram buckets of feature values, identical to the SQL function `feature_bucket`
 * (migrations/1767000000000-Baseline.ts): the float64's bits as an order-preserving
 * signed 64-bit integer, shifted right by {@link BUCKET_SHIFT}. Buckets are about 0.8 % of the
 * value wide, so a group needs at most a few thousand buckets per feature, however many sessions.
 */
exports.BUCKET_SHIFT = 45n;
const ALL_BUT_SIGN = 0x7fffffffffffffffn;
const view = new DataView(new ArrayBuffer(8));
/** The bucket holding `value` (finite; -0 is 0). */
function featureBucket(value) {
    view.setFloat64(0, value === 0 ? 0 : value);
    const bits = view.getBigInt64(0);
    const key = bits >= 0n ? bits : bits ^ ALL_BUT_SIGN;
    return Number(key >> exports.BUCKET_SHIFT);
}
/** The smallest float64 in `bucket`: the bucket is [bucketFloor(b), bucketFloor(b + 1)). */
function bucketFloor(bucket) {
    const key = BigInt(bucket) << exports.BUCKET_SHIFT;
    view.setBigInt64(0, key >= 0n ? key : key ^ ALL_BUT_SIGN);
    return view.getFloat64(0);
}
//# sourceMappingURL=feature-buckets.js.map