import { canonicalEvents, isIsoInstant } from './webhook.dto';

describe('canonicalEvents', () => {
  it('collapses duplicates into the canonical order', () => {
    expect(canonicalEvents(['user.deleted', 'user.created', 'user.deleted'])).toEqual([
      'user.created',
      'user.deleted',
    ]);
  });
});

describe('isIsoInstant (replay windows)', () => {
  it.each([
    '2026-11-01',
    '2026-11-01T09:30Z',
    '2026-11-01T09:30:00Z',
    '2026-11-01T09:30:00.123Z',
    '2026-11-01T09:30:00.123456Z',
    '2026-11-01T09:30:00+02:00',
    '2026-11-01T09:30:00-05:30',
    '2024-02-29',
  ])('accepts %s', (value) => expect(isIsoInstant(value)).toBe(true));

  it.each([
    '',
    'yesterday',
    '2026-11-01T09:30:00', // no time zone: would depend on the server's
    '2026-13-01',
    '2026-02-30',
    '2025-02-29',
    '2026-11-01T24:00:00Z',
    '2026-11-01T09:60:00Z',
    '2026-11-01 09:30:00Z',
    '1767225600000',
    'Thu, 01 Jan 2026 00:00:00 GMT',
  ])('refuses %s', (value) => expect(isIsoInstant(value)).toBe(false));
});
