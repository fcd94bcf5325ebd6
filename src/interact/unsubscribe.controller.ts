import { Controller, Get, Header, HttpCode, Post, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../common/auth/public.decorator';
import { Database } from '../database/database';
import { ParticipantLinks } from '../participant-links/participant-links';
import { ConsentLedgerRepository } from '../participants/consent-ledger.repository';
import { EMAIL_TYPES, EmailType } from './interact.errors';
import { InteractRepository, UnsubscribeLink } from './interact.repository';

/** A valid unsubscribe link's target, with its email type checked. */
type UnsubscribeTarget = UnsubscribeLink & { type: EmailType };

const TYPE_WORDS: Record<EmailType, string> = {
  checkinReminder: 'check-in reminders',
  privacyRequest: 'privacy review requests',
};

const escape = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title></head><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;line-height:1.5"><h1>${escape(title)}</h1>${body}</body></html>`;

/**
 * One-click unsubscribe (RFC 8058) for the `List-Unsubscribe` link of every mail. POST (what mail
 * clients send, `List-Unsubscribe=One-Click`) turns the preference off; GET only shows a button,
 * because link scanners follow GET links on their own.
 */
@ApiExcludeController()
@Public()
@Controller('participant/unsubscribe')
export class UnsubscribeController {
  constructor(
    private readonly links: ParticipantLinks,
    private readonly repository: InteractRepository,
    private readonly ledger: ConsentLedgerRepository,
    private readonly db: Database,
  ) {}

  /** Turns the preference off and writes the change to the consent ledger, in one transaction. */
  private turnOff(target: UnsubscribeTarget): Promise<boolean> {
    return this.db.transaction(async (sql) => {
      const before = await this.repository.unsubscribe(target, target.type, sql);
      if (!before) return false;
      await this.ledger.append(
        [
          {
            enterpriseId: before.enterpriseId,
            participantId: target.participantId,
            groupId: null,
            change: target.type,
            from: before.before,
            to: false,
            via: 'unsubscribe',
          },
        ],
        sql,
      );
      return true;
    });
  }

  private target(token: unknown): UnsubscribeTarget | null {
    const target = this.links.unsubscribeTargetOf(token);
    return target && (EMAIL_TYPES as readonly string[]).includes(target.emailType)
      ? { ...target, type: target.emailType as EmailType }
      : null;
  }

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  @Header('Referrer-Policy', 'no-referrer')
  async confirm(
    @Query('token') token: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const target = this.target(token);
    // A revoked link (DESIGN §15) reads as not valid already on the confirmation page.
    if (!target || !(await this.repository.unsubscribeLinkValid(target))) {
      reply.status(404);
      return page('This link is not valid or has expired', '<p>Nothing was changed.</p>');
    }
    return page(
      'Unsubscribe',
      `<p>Stop receiving ${TYPE_WORDS[target.type]}?</p><form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
    );
  }

  @Post()
  @HttpCode(200)
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  async unsubscribe(
    @Query('token') token: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const target = this.target(token);
    if (!target || !(await this.turnOff(target))) {
      reply.status(404);
      return page('This link is not valid or has expired', '<p>Nothing was changed.</p>');
    }
    return page(
      'You are unsubscribed',
      `<p>You will no longer receive ${TYPE_WORDS[target.type]}. You can turn them back on in your settings.</p>`,
    );
  }
}
