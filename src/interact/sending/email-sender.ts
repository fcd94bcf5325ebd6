import { Inject, Injectable } from '@nestjs/common';
import { SpanStatusCode } from '@opentelemetry/api';
import { PiiCipher } from '../../common/crypto/pii-cipher';
import { openSealed } from '../../common/crypto/sealed-reads';
import { DEFAULT_LOCALE, supportedLocale } from '../../common/i18n/locales';
import { inStoredTrace } from '../../common/telemetry/trace-context';
import { levelOfNames } from '../../common/privacy-model';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { ParticipantLinks } from '../../participant-links/participant-links';
import { plainEmailAddress } from '../../common/validation/email-address';
import { raisesOf } from '../privacy-notice';
import { EmailSendingRepository, MessageToSend } from './email-sending.repository';
import { renderMail } from './mail-templates';
import {
  isPermanentSmtpFailure,
  Mailer,
  NotPlainAddressError,
  OutgoingMail,
  smtpFailureCode,
} from './mailer';

export type SendOutcome = 'sent' | 'skipped' | 'failed' | 'retry';

/** How a send ended, and for `failed` and `retry` the code kept in `email_messages.error`. */
export interface SendResult {
  outcome: SendOutcome;
  reason: string | null;
}

const ended = (outcome: SendOutcome, reason: string | null = null): SendResult => ({
  outcome,
  reason,
});

/**
 * Sends one queued mail: re-checks the preference (it may have been turned off since), renders
 * it, and sends it — or, for a sandbox enterprise, captures it instead (`sandbox_emails`). Permanent
 * SMTP failures (5xx) end it; temporary ones are retried by the queue.
 */
@Injectable()
export class EmailSender {
  constructor(
    private readonly repository: EmailSendingRepository,
    private readonly mailer: Mailer,
    private readonly cipher: PiiCipher,
    private readonly links: ParticipantLinks,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async send(messageId: string, lastAttempt: boolean): Promise<SendResult> {
    const message = await this.repository.loadForSending(messageId);
    if (!message || message.status !== 'queued') return ended('skipped');
    // A span whose parent is the request that queued the mail (docs/operations.md, "Traces").
    return inStoredTrace(
      'email.send',
      message.traceContext,
      { 'email.message.id': message.id, 'email.type': message.type },
      async (span) => {
        const result = await this.sendLoaded(message, lastAttempt);
        span.setAttribute('email.outcome', result.outcome);
        if (result.outcome === 'failed') span.setStatus({ code: SpanStatusCode.ERROR });
        return result;
      },
    );
  }

  private async sendLoaded(message: MessageToSend, lastAttempt: boolean): Promise<SendResult> {
    const messageId = message.id;
    if (!message.prefOn) {
      await this.repository.finish(messageId, 'skipped', 'preference turned off');
      return ended('skipped');
    }
    // Links at the membership's current link version (docs/security.md), signed when the mail is sent.
    const link = {
      participantId: message.participantId,
      groupId: message.groupId,
      linkVersion: message.linkVersion,
    };
    // A notice is a security message: no unsubscribe (docs/privacy.md).
    const unsubscribeUrl =
      message.type === 'privacyNotice' ? null : this.links.unsubscribeUrl(link, message.type);
    // A notice lists every raise it carries now; one added while it is sent gets a notice of its own.
    const raises =
      message.type === 'privacyNotice' ? raisesOf(message.details, message.createdAt) : null;
    const mail = renderMail({
      type: message.type,
      locale: supportedLocale(message.language) ?? DEFAULT_LOCALE,
      enterpriseName: message.enterpriseName,
      operatorName: this.config.checkin.operatorName,
      privacyNoticeUrl: this.config.checkin.privacyNoticeUrl,
      groupName: message.groupName,
      settingsUrl: this.links.settingsUrl(link),
      unsubscribeUrl,
      checkinUrl: this.config.email.checkinReminderUrl,
      requestedLevel: levelOfNames(message.requestedPrivacy),
      currentLevel: message.privacyLevel,
      notice: raises,
      biometric: message.biometric,
    });
    // An address the keys cannot open will not open on a later attempt either: the mail fails
    // now (docs/data-at-rest.md, "Data the keys cannot open").
    const to = openSealed(this.cipher, 'participants.email_ciphertext', message.emailCiphertext);
    if (to === null) {
      await this.repository.finish(messageId, 'failed', 'error');
      return ended('failed', 'error');
    }
    try {
      const outgoing: OutgoingMail = {
        id: message.id,
        to,
        fromName: message.enterpriseName,
        ...mail,
        headers: unsubscribeUrl
          ? {
              'List-Unsubscribe': `<${unsubscribeUrl}>`,
              'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
            }
          : {},
      };
      await (message.sandbox ? this.capture(message, outgoing) : this.mailer.send(outgoing));
    } catch (error) {
      const reason = smtpFailureCode(error);
      if (isPermanentSmtpFailure(error) || lastAttempt) {
        await this.repository.finish(messageId, 'failed', reason);
        return ended('failed', reason);
      }
      await this.repository.recordTemporaryFailure(messageId, reason);
      return ended('retry', reason);
    }
    await (raises
      ? this.repository.finishNotice(messageId, raises.length, this.config.email.dedupWindowMs)
      : this.repository.finish(messageId, 'sent', null));
    return ended('sent');
  }

  /**
   * A sandbox enterprise's mail (docs/integrating.md) is kept, rendered as it would have been sent, and
   * never reaches the mailer. Its recipient is checked as the mailer checks it, so the mail ends
   * as a real send would have (`sent`, or `failed` with `EADDRESS`).
   */
  private async capture(message: MessageToSend, mail: OutgoingMail): Promise<void> {
    if (plainEmailAddress(mail.to) === null) throw new NotPlainAddressError();
    await this.repository.capture(message, {
      subject: mail.subject,
      textCiphertext: this.cipher.encrypt(mail.text),
    });
  }
}
