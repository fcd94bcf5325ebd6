import { isParticipantPagePath } from './link-paths';

describe('isParticipantPagePath', () => {
  it.each([
    '/checkin',
    '/checkin?x=1',
    '/checkin/',
    '/checkin/t/done',
    '/participant',
    '/participant?token=t',
    '/participant/',
    '/participant/settings?token=t',
    '/participant/unsubscribe?token=t',
    '/participant/nothing-here',
  ])('%s is a participant page: answered in HTML', (url) =>
    expect(isParticipantPagePath(url)).toBe(true),
  );

  it.each([
    '/',
    '/checkins',
    '/checkin-foo/x',
    '/participants/ok_1',
    '/participants',
    '/groups?next=/checkin/',
    '/internal/sessions/x/result',
  ])('%s is not', (url) => expect(isParticipantPagePath(url)).toBe(false));
});
