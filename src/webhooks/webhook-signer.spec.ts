import { randomBytes, randomInt } from 'node:crypto';
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

  it("signs the same bytes as the standardwebhooks package's own sign", () => {
    const secret = newWebhookSecret();
    const webhook = new Webhook(secret);
    for (let i = 0; i < 200; i++) {
      const id = `evt_${randomBytes(8).toString('hex')}`;
      const body = JSON.stringify({ n: i, text: randomBytes(randomInt(0, 64)).toString('latin1') });
      const at = new Date(randomInt(2 ** 40));
      expect(signatureHeaders(id, body, [secret], at)['webhook-signature']).toBe(
        webhook.sign(id, at, body),
      );
    }
  });
});
