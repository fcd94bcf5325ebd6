import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '../../config/config';
import {
  isPermanentSmtpFailure,
  Mailer,
  NotPlainAddressError,
  OutgoingMail,
  smtpFailureCode,
} from './mailer';

/** nodemailer's errors: the server's text (quoting the address) in `message`, with codes. */
const smtpError = (fields: Record<string, unknown>): Error =>
  Object.assign(
    new Error(
      "Can't send mail - all recipients were rejected: 550 5.1.1 <ana@example.com>: no such user",
    ),
    fields,
  );

describe('what the email log keeps of a failure', () => {
  it('keeps the SMTP status code, never the text (it quotes addresses)', () => {
    const rejected = smtpError({ responseCode: 550, code: 'EENVELOPE' });
    expect(smtpFailureCode(rejected)).toBe('smtp 550');
    expect(isPermanentSmtpFailure(rejected)).toBe(true);
    expect(smtpFailureCode(smtpError({ responseCode: 421 }))).toBe('smtp 421');
  });

  it('keeps the error code of a connection failure, and nothing else', () => {
    expect(smtpFailureCode(smtpError({ code: 'ECONNECTION' }))).toBe('ECONNECTION');
    expect(smtpFailureCode(smtpError({ code: 'ETIMEDOUT' }))).toBe('ETIMEDOUT');
    expect(smtpFailureCode(smtpError({ code: 'ana@example.com' }))).toBe('error');
    expect(smtpFailureCode(smtpError({ responseCode: 'x' }))).toBe('error');
    expect(smtpFailureCode(new Error('ana@example.com'))).toBe('error');
  });
});

describe('the recipient handed to nodemailer', () => {
  let mailDir: string;
  let mailer: Mailer;

  beforeEach(async () => {
    mailDir = await mkdtemp(join(tmpdir(), 'mailer-spec-'));
    // No SMTP_URL: nodemailer renders each mail to a file, exactly as it would send it.
    mailer = new Mailer({
      email: { smtpUrl: null, mailDir, from: 'Check-in <checkin@example.com>' },
    } as AppConfig);
  });
  afterEach(async () => {
    mailer.onModuleDestroy();
    await rm(mailDir, { recursive: true, force: true });
  });

  const mail = (to: string): OutgoingMail => ({
    id: 'm1',
    to,
    fromName: 'Acme',
    subject: 'Hello',
    text: 'Hello',
    html: '<p>Hello</p>',
    headers: {},
  });

  it('is the one plain address, and only it', async () => {
    await mailer.send(mail('ana@example.com'));
    const written = await readFile(join(mailDir, 'm1.eml'), 'utf8');
    expect(written.match(/^To: .*$/gm)).toEqual(['To: ana@example.com']);
    expect(written).not.toMatch(/^(Cc|Bcc):/im);
  });

  it.each([
    'Boss <ana@example.com>',
    'a,ana@example.com',
    'ana@example.com, eve@example.com',
    'team: ana@example.com, eve@example.com;',
    'ana@example.com (boss)',
    'ana@example.com\nBcc: eve@example.com',
    'ana@example.com\u0000',
  ])('is never %j: refused as permanent, nothing is sent', async (to) => {
    const sending = mailer.send(mail(to));
    await expect(sending).rejects.toBeInstanceOf(NotPlainAddressError);
    const error = await sending.catch((caught: unknown) => caught);
    expect(isPermanentSmtpFailure(error)).toBe(true);
    expect(smtpFailureCode(error)).toBe('EADDRESS');
    expect(await readdir(mailDir)).toEqual([]);
  });
});
