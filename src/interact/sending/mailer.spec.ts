import { isPermanentSmtpFailure, smtpFailureCode } from './mailer';

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
