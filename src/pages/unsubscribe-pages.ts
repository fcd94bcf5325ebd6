/**
 * One-click unsubscribe (RFC 8058) for the `List-Unsubscribe` link of every mail, rendered like
 * every other participant page (one template engine, one set of page headers). POST — what mail
 * clients send, `List-Unsubscribe=One-Click` — turns the preference off; GET only shows the
 * button, because link scanners follow GET links on their own.
 */
import { Injectable } from '@nestjs/common';
import { EMAIL_TYPES, EmailType } from '../interact/interact.errors';
import { unsubscribePath } from '../participant-links/link-paths';
import { ParticipantLinks } from '../participant-links/participant-links';
import { ParticipantsRepository, UnsubscribeLink } from '../participants/participants.repository';
import { ParticipantChoices } from '../privacy/participant-choices';
import type { PageLanguage } from './i18n/page-language';
import { adoptParticipantLanguage } from './page-actions';
import { PageError } from './page-error';
import { PageRenderer } from './page-renderer';
import { pageTextsIn } from './pages.messages';

/** A valid unsubscribe link's target, with its email type checked, and the token it came in. */
interface UnsubscribeTarget extends UnsubscribeLink {
  emailType: EmailType;
  token: string;
}

@Injectable()
export class UnsubscribePages {
  constructor(
    private readonly links: ParticipantLinks,
    private readonly participants: ParticipantsRepository,
    private readonly choices: ParticipantChoices,
    private readonly renderer: PageRenderer,
  ) {}

  /**
   * GET: asks, changes nothing. A revoked link (docs/security.md) is not valid here already. The
   * page names the enterprise whose mails stop, in the participant's language.
   */
  async confirm(token: unknown, language: PageLanguage): Promise<Response> {
    const target = this.targetOf(token);
    const { enterpriseName } = await this.shownTarget(target, language);
    const texts = pageTextsIn(language.locale());
    return this.renderer.page(
      'unsubscribe',
      {
        title: texts.unsubscribeTitle,
        text: texts.unsubscribeQuestion(target.emailType, enterpriseName),
        action: unsubscribePath(target.token),
      },
      language,
    );
  }

  /** POST: turns the preference off, with its ledger row. */
  async unsubscribe(token: unknown, language: PageLanguage): Promise<Response> {
    const target = this.targetOf(token);
    const { enterpriseName } = await this.shownTarget(target, language);
    if (!(await this.choices.unsubscribe(target, target.emailType))) {
      throw UnsubscribePages.notValid();
    }
    const texts = pageTextsIn(language.locale());
    return this.renderer.page(
      'notice',
      {
        title: texts.unsubscribedTitle,
        text: texts.unsubscribedText(target.emailType, enterpriseName),
      },
      language,
    );
  }

  /**
   * What the page shows of a valid link's participant (whose saved language joins `language`'s);
   * a 404 page when the link is not valid.
   */
  private async shownTarget(
    target: UnsubscribeTarget,
    language: PageLanguage,
  ): Promise<{ enterpriseName: string }> {
    const shown = await this.participants.unsubscribeLinkTarget(target);
    if (!shown) throw UnsubscribePages.notValid();
    await adoptParticipantLanguage(
      this.choices,
      { participantId: target.participantId, language: shown.language },
      language,
    );
    return shown;
  }

  /** The preference an unsubscribe token names; a 404 page when it is not valid. */
  private targetOf(token: unknown): UnsubscribeTarget {
    const target = this.links.unsubscribeTargetOf(token);
    if (!target || !(EMAIL_TYPES as readonly string[]).includes(target.emailType)) {
      throw UnsubscribePages.notValid();
    }
    return {
      participantId: target.participantId,
      membership: target.membership,
      emailType: target.emailType as EmailType,
      token: token as string,
    };
  }

  private static notValid(): PageError {
    return new PageError(404, 'unsubscribe-not-valid');
  }
}
