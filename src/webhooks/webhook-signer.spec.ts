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

  /** A string of `length` code points drawn from ASCII, Latin-1, CJK, emoji and lone surrogates. */
  const randomText = (length: number): string => {
    const ranges: [number, number][] = [
      [0x20, 0x7e],
      [0x00, 0x1f],
      [0xa0, 0xff],
      [0x4e00, 0x9fff],
      [0x1f300, 0x1faff],
      [0xd800, 0xdfff], // lone surrogates: both sides encode them as U+FFFD
    ];
    let text = '';
    for (let i = 0; i < length; i++) {
      const [low, high] = ranges[randomInt(ranges.length)];
      text += String.fromCodePoint(randomInt(low, high + 1));
    }
    return text;
  };

  it("matches the package's sign over random secrets, ids, timestamps and non-ASCII payloads", () => {
    for (let i = 0; i < 500; i++) {
      const secrets = Array.from(
        { length: randomInt(1, 3) },
        () => `whsec_${randomBytes(randomInt(1, 65)).toString('base64')}`,
      );
      const id =
        i % 2 === 0 ? `evt_${randomBytes(8).toString('hex')}` : randomText(randomInt(1, 20));
      const payload = randomText(randomInt(0, 300));
      const body = i % 3 === 0 ? payload : JSON.stringify({ n: i, payload });
      const at = new Date(randomInt(2 ** 42));
      const headers = signatureHeaders(id, body, secrets, at);
      expect(headers['webhook-timestamp']).toBe(String(Math.floor(at.getTime() / 1000)));
      expect(headers['webhook-signature']).toBe(
        secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(' '),
      );
    }
  });
});
