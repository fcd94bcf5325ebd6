import { Module } from '@nestjs/common';
import { PAGE_ERROR_HANDLER } from '../common/http/page-error-handler';
import { HtmlPageExceptionFilter } from './html-exception.filter';
import { EnterprisesModule } from '../enterprises/enterprises.module';
import { ErasureModule } from '../erasure/erasure.module';
import { ParticipantLinksModule } from '../participant-links/participant-links.module';
import { ParticipantsModule } from '../participants/participants.module';
import { ParticipantChoicesModule } from '../privacy/participant-choices.module';
import { SessionRecordsModule } from '../sessions/session-records.module';
import { CheckinPagesController } from './checkin-pages.controller';
import { CheckinPagesRepository } from './checkin-pages.repository';
import { CheckinPagesService } from './checkin-pages.service';
import { BrowserBinding } from './browser-binding';
import { PageRenderer } from './page-renderer';
import { LinkBindingsRepository } from './link-bindings.repository';
import { BrowsersRepository } from './browsers.repository';
import { ParticipantSettingsController } from './participant-settings.controller';
import { UnsubscribeController } from './unsubscribe.controller';
import { SettingsPagesService } from './settings-pages.service';
import { UnsubscribePages } from './unsubscribe-pages';

/**
 * Participant-facing pages: `/checkin/{token}` (consent, privacy review, email preferences,
 * hand-off to the analysis engine, `/done`), `/participant/settings?token=…` and the one-click
 * `/participant/unsubscribe?token=…` of every mail. Server-rendered HTML without scripts, one
 * template engine and one set of headers for all of them; errors are HTML pages too
 * (HtmlPageExceptionFilter). The links' tokens are read through ParticipantLinks, which also
 * mints them for sessions and emails.
 */
@Module({
  imports: [
    ParticipantLinksModule,
    ParticipantsModule,
    ParticipantChoicesModule,
    ErasureModule,
    SessionRecordsModule,
    // ProgrammesService: the AI notice and the declared programme (docs/compliance.md).
    EnterprisesModule,
  ],
  controllers: [CheckinPagesController, ParticipantSettingsController, UnsubscribeController],
  providers: [
    CheckinPagesRepository,
    CheckinPagesService,
    SettingsPagesService,
    LinkBindingsRepository,
    BrowsersRepository,
    UnsubscribePages,
    BrowserBinding,
    PageRenderer,
    HtmlPageExceptionFilter,
    // Errors raised before the pages' own filter runs (e.g. a 413 body) are HTML too.
    { provide: PAGE_ERROR_HANDLER, useExisting: HtmlPageExceptionFilter },
  ],
  exports: [PAGE_ERROR_HANDLER],
})
export class CheckinPagesModule {}
