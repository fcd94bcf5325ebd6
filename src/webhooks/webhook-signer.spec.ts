import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, signatureHeaders } from './webhook-signer';

describe('webhook signing', () => {
  it('produces headers a standardwebhooks receiver verifies, with either secret during rotation', () => {
    const oldSecret = newWebhookSecret();
    const newSecret = newWebhookSecret();
    expect(newSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify({ id: 'evt_1', type: 'user.created' });
    const headers = signatureHeaders('evt_1', body, [newSecret, oldSecret]);
    expect(headers['webhook-id']).toBe('evt_1');
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(newSecret).verify(body, headers)).toEqual({
      id: 'evt_1',
      type: 'user.created',
    });
    expect(new Webhook(oldSecret).verify(body, headers)).toEqual({
      id: 'evt_1',
      type: 'user.created',
    });
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(newSecret).verify(`${body} `, headers)).toThrow();
  });
});
