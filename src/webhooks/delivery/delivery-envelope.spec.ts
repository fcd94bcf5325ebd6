import { PiiCipher } from '../../common/crypto/pii-cipher';
import type { AppConfig } from '../../config/config';
import type { ClaimedDelivery } from './delivery-lease.repository';
import { DeliveryService } from './delivery.service';

/** The event envelope, with personal data from `encrypted_pii`, or its fields as null once cleared. */
describe('DeliveryService.envelope', () => {
  const cipher = new PiiCipher(Buffer.alloc(32, 7));
  const service = new DeliveryService(
    undefined as never,
    cipher,
    { webhooks: { timeoutMs: 15_000 } } as AppConfig,
    undefined as never,
  );
  const delivery = (type: string, payload: object, pii: object | null) =>
    ({
      eventId: `evt_${'0'.repeat(48)}`,
      eventType: type,
      eventPayload: payload,
      eventPii: pii ? cipher.encrypt(JSON.stringify(pii)) : null,
      eventCreatedAt: new Date('2026-11-23T10:00:00Z'),
    }) as unknown as ClaimedDelivery;
  const object = (json: string) =>
    (JSON.parse(json) as { data: { object: Record<string, unknown> } }).data.object;

  it.each([
    ['user.created', { groupID: 1, userIdentifier: 'ok_x' }, { email: 'a@example.com' }],
    ['user.deleted', { groupID: 1, timestamp: 't' }, { userIdentifier: 'ok_x' }],
  ])('%s: merges the personal data while it is kept', (type, payload, pii) => {
    expect(object(service.envelope(delivery(type, payload, pii)))).toEqual({ ...payload, ...pii });
  });

  it.each([
    ['user.created', { groupID: 1, userIdentifier: 'ok_x' }, { email: null }],
    ['user.deleted', { groupID: 1, timestamp: 't' }, { userIdentifier: null }],
    ['user.session.result', { groupID: 1, sessionID: 's' }, {}],
  ])('%s: once cleared, its personal fields are null', (type, payload, cleared) => {
    expect(object(service.envelope(delivery(type, payload, null)))).toEqual({
      ...payload,
      ...cleared,
    });
  });
});
