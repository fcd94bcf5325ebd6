import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import nodemailer, { Transporter } from 'nodemailer';
import { plainEmailAddress } from '../../common/validation/email-address';
import { senderAddress } from '../../config/validators';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';

export interface OutgoingMail {
  id: string;
  to: string;
  /** The sender's display name: the enterprise's name, at EMAIL_FROM's address (docs/emails.md). */
  fromName: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

/**
 * The recipient is not one plain address (docs/security.md): nodemailer would read it as other or
 * several recipients, so it is never handed over. Permanent; logged as its code, `EADDRESS`.
 */
export class NotPlainAddressError extends Error {
  readonly code = 'EADDRESS';

  constructor() {
    super('the recipient is not one plain email address');
    this.name = 'NotPlainAddressError';
  }
}

/**
 * An SMTP answer that will not change on retry (5xx) is permanent, and so is a recipient that is
 * not a plain address; anything else is not.
 */
export function isPermanentSmtpFailure(error: unknown): boolean {
  if (error instanceof NotPlainAddressError) return true;
  const code = (error as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/**
 * What the email log keeps of a failure: `smtp <status code>` for an SMTP answer, else
 * nodemailer's error code (`ECONNECTION`, `ETIMEDOUT`, …), else `error` — never the text, which
 * quotes addresses (docs/data-at-rest.md).
 */
export function smtpFailureCode(error: unknown): string {
  const { responseCode, code } = error as { responseCode?: unknown; code?: unknown };
  if (typeof responseCode === 'number' && Number.isInteger(responseCode)) {
    if (responseCode >= 200 && responseCode < 600) return `smtp ${responseCode}`;
  }
  if (typeof code === 'string' && /^E[A-Z]{1,31}$/.test(code)) return code;
  return 'error';
}

/** A display name is one line, and not so long that mail clients cut it oddly. */
function displayName(name: string): string {
  const line = name.replace(/[\r\n\t]+/g, ' ').trim();
  return line.length > 78 ? `${line.slice(0, 77)}…` : line;
}

/**
 * Sends mails with nodemailer over pooled SMTP (SMTP_URL). With the file transport (the
 * development default; production only with MAIL_TRANSPORT=file), each mail is written as
 * `<MAIL_DIR>/<id>.eml`, so a laptop run still shows what would have been sent.
 */
@Injectable()
export class Mailer implements OnModuleDestroy {
  private readonly logger = new Logger(Mailer.name);
  private readonly transport: Transporter;
  private readonly mailDir: string | null;
  /** EMAIL_FROM's address (its display name, if any, is replaced by each mail's sender). */
  private readonly fromAddress: string;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    const { transport, smtpUrl, mailDir, from } = config.email;
    // The configuration accepts only an EMAIL_FROM with one plain address (config.ts).
    this.fromAddress = senderAddress(from) ?? from;
    if (transport === 'smtp' && smtpUrl) {
      const url = new URL(smtpUrl);
      url.searchParams.set('pool', 'true');
      this.transport = nodemailer.createTransport(url.toString());
      this.mailDir = null;
    } else {
      this.transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
      this.mailDir = resolve(mailDir);
    }
  }

  /**
   * Sends to `mail.to`, which must be one plain address: it is handed to nodemailer as an address
   * object, never as a string nodemailer would parse into a list (NotPlainAddressError otherwise).
   */
  async send(mail: OutgoingMail): Promise<void> {
    const address = plainEmailAddress(mail.to);
    if (address === null) throw new NotPlainAddressError();
    const info = (await this.transport.sendMail({
      from: { name: displayName(mail.fromName), address: this.fromAddress },
      to: { name: '', address },
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      headers: mail.headers,
    })) as { message?: Buffer };
    if (this.mailDir && info.message) {
      await mkdir(this.mailDir, { recursive: true });
      const file = join(this.mailDir, `${mail.id}.eml`);
      await writeFile(file, info.message);
      this.logger.log(`File mail transport: mail written to ${file}`);
    }
  }

  onModuleDestroy(): void {
    this.transport.close();
  }
}
