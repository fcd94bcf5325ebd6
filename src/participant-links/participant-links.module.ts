import { Module } from '@nestjs/common';
import { LinkTokens } from './link-tokens';
import { ParticipantLinks } from './participant-links';

/** Participants' signed links: sessions mint check-in links, emails settings and unsubscribe
 * links, and the participant pages read them. */
@Module({ providers: [LinkTokens, ParticipantLinks], exports: [ParticipantLinks, LinkTokens] })
export class ParticipantLinksModule {}
