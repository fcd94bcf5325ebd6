import { bucketFloor, featureBucket } from './feature-buckets';

describe('feature buckets', () => {
  const samples = [
    -1e300,
    -12345.678,
    -100,
    -1.5,
    -1,
    -0.75,
    -1e-300,
    -5e-324,
    -0,
    0,
    5e-324,
    1e-300,
    0.001,
    0.5,
    0.75,
    1,
    1.0000001,
    2,
    42.42,
    99.9,
    100,
    1e6,
    Number.MAX_VALUE,
    -Number.MAX_VALUE,
  ];

  it('preserves order', () => {
    const sorted = [...samples].sort((a, b) => a - b);
    for (let i = 1; i < sorted.length; i++) {
      expect(featureBucket(sorted[i])).toBeGreaterThanOrEqual(featureBucket(sorted[i - 1]));
    }
  });

  it('puts -0 and 0 together', () => {
    expect(featureBucket(-0)).toBe(featureBucket(0));
  });

  it('bucketFloor is the smallest value of its bucket', () => {
    for (const value of samples) {
      const bucket = featureBucket(value);
      const floor = bucketFloor(bucket);
      expect(floor).toBeLessThanOrEqual(value);
      expect(featureBucket(floor)).toBe(bucket);
      // The float just below the floor belongs to the previous bucket.
      const below = floor === 0 ? -5e-324 : nextDown(floor);
      if (Number.isFinite(below)) expect(featureBucket(below)).toBeLessThan(bucket);
    }
  });

  it('buckets are narrow: about 0.8 % of the value', () => {
    for (const value of [0.01, 1, 37.5, 100, 12345]) {
      const bucket = featureBucket(value);
      const width = bucketFloor(bucket + 1) - bucketFloor(bucket);
      expect(width / value).toBeLessThanOrEqual(1 / 128);
    }
  });
});

function nextDown(value: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigInt64(0);
  view.setBigInt64(0, value > 0 ? bits - 1n : bits + 1n);
  return view.getFloat64(0);
}
