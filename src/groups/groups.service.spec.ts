/**
 * GroupsService's rules with the repository faked:
 * - a Group is answered with the spec's fields in the spec's order, `consentRequired` a string;
 * - creating draws a fresh key (`gk_` + 32 base62) and invite code (13 lowercase alphanumerics)
 *   and, when either collides with a stored one (unique violation 23505), draws again, three
 *   attempts in all; any other failure is not retried;
 * - an update changes only what is sent (`consentRequired: 'false'` is a change, an absent one
 *   is not), always within the caller's enterprise;
 * - a group the caller does not have is 400 `Group not found` for update, delete and the
 *   participant list, and the list is not read then.
 */
import { ApiError } from '../common/errors/api-error';
import { GroupErrors } from './groups.errors';
import type { GroupRecord, GroupsRepository } from './groups.repository';
import { GroupsService, toGroupDto } from './groups.service';

const ACME = '00000000-0000-4000-8000-00000000000a';

const record = (overrides: Partial<GroupRecord> = {}): GroupRecord => ({
  groupId: 12,
  name: 'Night shift',
  requestedPrivacy: [],
  inviteCode: 'k3v9q0w2x7m1p',
  key: 'gk_4fJ9kQ2mZ8xW1vB7nR3tY6uP0sL5aD2c',
  consentRequired: false,
  credits: 0,
  ...overrides,
});

const uniqueViolation = () =>
  Object.assign(new Error('duplicate key value violates unique constraint "groups_key_key"'), {
    code: '23505',
  });

function serviceWith(repository: Partial<Record<keyof GroupsRepository, jest.Mock>>) {
  return new GroupsService(repository as unknown as GroupsRepository);
}

/** What the client is answered for a refusal: its status and message. */
async function refusalOf(promise: Promise<unknown>): Promise<{ status: number; error: string }> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return { status: (error as ApiError).status, error: (error as ApiError).message };
  }
  throw new Error('expected a refusal, got an answer');
}

describe('toGroupDto', () => {
  it("answers the spec's fields in the spec's order, consentRequired as a string", () => {
    const dto = toGroupDto(
      record({ requestedPrivacy: ['mhci', 'transcript'], consentRequired: true, credits: -2 }),
    );
    expect(Object.keys(dto)).toEqual([
      'groupID',
      'groupName',
      'requestedPrivacyLevel',
      'inviteCode',
      'key',
      'consentRequired',
      'credits',
    ]);
    expect(dto).toEqual({
      groupID: 12,
      groupName: 'Night shift',
      requestedPrivacyLevel: ['mhci', 'transcript'],
      inviteCode: 'k3v9q0w2x7m1p',
      key: 'gk_4fJ9kQ2mZ8xW1vB7nR3tY6uP0sL5aD2c',
      consentRequired: 'true',
      credits: -2,
    });
    expect(toGroupDto(record()).consentRequired).toBe('false');
  });
});

describe('GroupsService', () => {
  describe('create', () => {
    it("inserts the name with a fresh key and invite code, in the caller's enterprise", async () => {
      const insertForEnterprise = jest.fn((_: string, values: { name: string }) =>
        Promise.resolve(record({ name: values.name })),
      );
      const dto = await serviceWith({ insertForEnterprise }).create(ACME, 'Day shift');

      expect(insertForEnterprise.mock.calls).toEqual([
        [
          ACME,
          {
            name: 'Day shift',
            key: expect.stringMatching(/^gk_[0-9A-Za-z]{32}$/) as unknown,
            inviteCode: expect.stringMatching(/^[0-9a-z]{13}$/) as unknown,
          },
        ],
      ]);
      expect(dto.groupName).toBe('Day shift');
    });

    it('draws a new key and invite code after a collision, up to three attempts', async () => {
      const insertForEnterprise = jest
        .fn()
        .mockRejectedValueOnce(uniqueViolation())
        .mockRejectedValueOnce(uniqueViolation())
        .mockResolvedValueOnce(record({ groupId: 99 }));
      const dto = await serviceWith({ insertForEnterprise }).create(ACME, 'Lucky');

      expect(dto.groupID).toBe(99);
      const drawn = insertForEnterprise.mock.calls.map(
        ([, values]: [string, { key: string; inviteCode: string }]) => values,
      );
      expect(drawn).toHaveLength(3);
      expect(new Set(drawn.map((values) => values.key)).size).toBe(3);
      expect(new Set(drawn.map((values) => values.inviteCode)).size).toBe(3);
    });

    it('gives up after the third collision and throws it', async () => {
      const third = uniqueViolation();
      const insertForEnterprise = jest
        .fn()
        .mockRejectedValueOnce(uniqueViolation())
        .mockRejectedValueOnce(uniqueViolation())
        .mockRejectedValueOnce(third)
        .mockResolvedValue(record());
      await expect(serviceWith({ insertForEnterprise }).create(ACME, 'Unlucky')).rejects.toBe(
        third,
      );
      expect(insertForEnterprise).toHaveBeenCalledTimes(3);
    });

    it('does not retry any other failure', async () => {
      const outage = Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' });
      const insertForEnterprise = jest.fn().mockRejectedValue(outage);
      await expect(serviceWith({ insertForEnterprise }).create(ACME, 'Down')).rejects.toBe(outage);
      expect(insertForEnterprise).toHaveBeenCalledTimes(1);
    });
  });

  describe('update', () => {
    it.each([
      [{ groupName: 'Renamed' }, { name: 'Renamed', consentRequired: null }],
      [{ consentRequired: 'true' as const }, { name: null, consentRequired: true }],
      [{ consentRequired: 'false' as const }, { name: null, consentRequired: false }],
      [
        { groupName: 'Both', consentRequired: 'false' as const },
        { name: 'Both', consentRequired: false },
      ],
      [{}, { name: null, consentRequired: null }],
    ])('sends %j as the changes %j', async (changes, stored) => {
      const updateForEnterprise = jest.fn(() => Promise.resolve(record()));
      await serviceWith({ updateForEnterprise }).update(ACME, 12, changes);
      expect(updateForEnterprise.mock.calls).toEqual([[ACME, 12, stored]]);
    });

    it('answers the group as stored after the change', async () => {
      const updated = record({ name: 'After', consentRequired: true });
      const updateForEnterprise = jest.fn(() => Promise.resolve(updated));
      expect(
        await serviceWith({ updateForEnterprise }).update(ACME, 12, { groupName: 'After' }),
      ).toEqual(toGroupDto(updated));
    });

    it('answers 400 Group not found for a group the enterprise does not have', async () => {
      const updateForEnterprise = jest.fn(() => Promise.resolve(null));
      expect(
        await refusalOf(serviceWith({ updateForEnterprise }).update(ACME, 12, { groupName: 'x' })),
      ).toEqual({ status: 400, error: GroupErrors.NotFound });
    });
  });

  describe('remove', () => {
    it("deletes within the caller's enterprise; nothing deleted is 400 Group not found", async () => {
      const deleteForEnterprise = jest
        .fn()
        .mockResolvedValueOnce(true)
        .mockResolvedValueOnce(false);
      const service = serviceWith({ deleteForEnterprise });
      await expect(service.remove(ACME, 12)).resolves.toBeUndefined();
      expect(await refusalOf(service.remove(ACME, 12))).toEqual({
        status: 400,
        error: GroupErrors.NotFound,
      });
      expect(deleteForEnterprise.mock.calls).toEqual([
        [ACME, 12],
        [ACME, 12],
      ]);
    });
  });

  describe('listParticipants', () => {
    it('answers the external ids of a group the enterprise has', async () => {
      const existsForEnterprise = jest.fn(() => Promise.resolve(true));
      const listParticipantExternalIds = jest.fn(() => Promise.resolve(['ok_1', 'ok_2']));
      expect(
        await serviceWith({ existsForEnterprise, listParticipantExternalIds }).listParticipants(
          ACME,
          12,
        ),
      ).toEqual(['ok_1', 'ok_2']);
      expect(existsForEnterprise.mock.calls).toEqual([[ACME, 12]]);
      expect(listParticipantExternalIds.mock.calls).toEqual([[ACME, 12]]);
    });

    it('answers 400 Group not found, without reading the list, for a group it does not have', async () => {
      const existsForEnterprise = jest.fn(() => Promise.resolve(false));
      const listParticipantExternalIds = jest.fn(() => Promise.resolve([]));
      expect(
        await refusalOf(
          serviceWith({ existsForEnterprise, listParticipantExternalIds }).listParticipants(
            ACME,
            12,
          ),
        ),
      ).toEqual({ status: 400, error: GroupErrors.NotFound });
      expect(listParticipantExternalIds).not.toHaveBeenCalled();
    });
  });
});
