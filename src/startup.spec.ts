import { retiredVariablesNotice } from './startup';

describe('retired variables (docs/operations.md)', () => {
  it('an old setting is named in the start-up notice, not silently ignored', () => {
    expect(retiredVariablesNotice({})).toBeNull();
    expect(retiredVariablesNotice({ METRICS_SEAL_DELAY_MINUTES: '60' })).toBe(
      'METRICS_SEAL_DELAY_MINUTES is no longer read: group metrics are released by calendar windows now; METRICS_RELEASE_GRACE_HOURS says when (docs/metrics.md)',
    );
  });
});
