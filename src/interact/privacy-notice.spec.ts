import { noticeDetails, type NoticeRaise, raisesOf, splitSent, withRaise } from './privacy-notice';

const QUEUED_AT = new Date('2026-02-10T09:40:00.000Z');
const raise = (from: number, to: number, minute: number): NoticeRaise => ({
  from,
  to,
  at: `2026-02-10T09:${String(minute).padStart(2, '0')}:00.000Z`,
});

describe('the raises a privacy notice carries (privacy-notice.ts)', () => {
  it('stores the raises in order, with the level before the first and after the last', () => {
    expect(noticeDetails([raise(0, 1, 41), raise(1, 5, 50)])).toEqual({
      from: 0,
      to: 5,
      raises: [raise(0, 1, 41), raise(1, 5, 50)],
    });
    expect(() => noticeDetails([])).toThrow('at least one raise');
  });

  it('adds a raise after the others, never in place of one', () => {
    const first = noticeDetails([raise(0, 1, 41)]);
    const second = withRaise(first, raise(1, 5, 50), QUEUED_AT);
    const third = withRaise(second, raise(2, 4, 55), QUEUED_AT);
    expect(raisesOf(third, QUEUED_AT)).toEqual([raise(0, 1, 41), raise(1, 5, 50), raise(2, 4, 55)]);
    expect(third).toMatchObject({ from: 0, to: 4 });
    // The stored notice it was made from is not changed.
    expect(first.raises).toHaveLength(1);
  });

  it('reads a notice of the previous release ({from, to}) as one raise made when it was queued', () => {
    expect(raisesOf({ from: 1, to: 3 }, QUEUED_AT)).toEqual([raise(1, 3, 40)]);
    expect(withRaise({ from: 1, to: 3 }, raise(0, 2, 45), QUEUED_AT)).toEqual({
      from: 1,
      to: 2,
      raises: [raise(1, 3, 40), raise(0, 2, 45)],
    });
    expect(raisesOf(null, QUEUED_AT)).toEqual([]);
  });

  it('splits a sent notice into what it said and the raises added while it was sent', () => {
    const details = noticeDetails([raise(0, 1, 41), raise(1, 5, 50), raise(2, 4, 55)]);
    expect(splitSent(details, 3, QUEUED_AT)).toEqual({ sent: details, rest: null });
    expect(splitSent(details, 1, QUEUED_AT)).toEqual({
      sent: { from: 0, to: 1, raises: [raise(0, 1, 41)] },
      rest: { from: 1, to: 4, raises: [raise(1, 5, 50), raise(2, 4, 55)] },
    });
    expect(splitSent({ from: 1, to: 3 }, 1, QUEUED_AT)).toEqual({
      sent: { from: 1, to: 3, raises: [raise(1, 3, 40)] },
      rest: null,
    });
  });
});
