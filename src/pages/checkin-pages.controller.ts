import { Body, Controller, Get, Param, Post, Query, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../common/auth/public.decorator';
import { type Browser, RequestBrowser } from './browser-binding';
import { CheckinPagesService } from './checkin-pages.service';
import { HtmlPageExceptionFilter } from './html-exception.filter';
import { type PageLanguage, RequestPageLanguage } from './i18n/page-language';
import { SameOriginFormsGuard } from './same-origin-forms.guard';
import { PageError } from './page-error';
import type { PageForm } from './page-forms';

/**
 * The check-in page a participant reaches from `redirectUrl` (HTML, public: the signed token in
 * the path is the capability). Not part of the enterprise API, so not in the OpenAPI document.
 */
@ApiExcludeController()
@Public()
@UseFilters(HtmlPageExceptionFilter)
// Forms posted from another site's page change nothing (same-origin-forms.guard.ts).
@UseGuards(SameOriginFormsGuard)
@Controller('checkin')
export class CheckinPagesController {
  constructor(private readonly pages: CheckinPagesService) {}

  /**
   * The engine's confirm step (docs/checkin-flow.md, "Hand-off"). A static route: Fastify's
   * router matches it before `:token`.
   */
  @Get('confirm')
  confirm(
    @Query('handoff') handoff: unknown,
    @RequestBrowser() browser: Browser,
  ): Promise<Response> {
    return this.pages.confirmHandoff(handoff, browser);
  }

  @Get(':token')
  page(
    @Param('token') token: string,
    @Query('saved') saved: unknown,
    @RequestBrowser() browser: Browser,
    @RequestPageLanguage() language: PageLanguage,
  ): Promise<Response> {
    return this.pages.checkinPage(token, saved, browser, language);
  }

  @Post(':token/start')
  start(
    @Param('token') token: string,
    @RequestBrowser() browser: Browser,
    @RequestPageLanguage() language: PageLanguage,
  ): Promise<Response> {
    return this.pages.startCheckin(token, browser, language);
  }

  @Post(':token/consent')
  consent(
    @Param('token') token: string,
    @RequestBrowser() browser: Browser,
    @RequestPageLanguage() language: PageLanguage,
  ): Promise<Response> {
    return this.pages.giveConsent(token, browser, language);
  }

  @Post(':token/privacy')
  privacy(
    @Param('token') token: string,
    @Body() form: PageForm,
    @RequestBrowser() browser: Browser,
    @RequestPageLanguage() language: PageLanguage,
  ): Promise<Response> {
    return this.pages.setCheckinPrivacyLevel(token, form, browser, language);
  }

  @Post(':token/handoff')
  handOff(
    @Param('token') token: string,
    @Body() form: PageForm,
    @RequestBrowser() browser: Browser,
    @RequestPageLanguage() language: PageLanguage,
  ): Promise<Response> {
    return this.pages.handOff(token, form, browser, language);
  }

  /** The page's one form: privacy level and email preferences together. */
  @Post(':token/choices')
  choices(
    @Param('token') token: string,
    @Body() form: PageForm,
    @RequestBrowser() browser: Browser,
    @RequestPageLanguage() language: PageLanguage,
  ): Promise<Response> {
    return this.pages.setCheckinChoices(token, form, browser, language);
  }

  @Post(':token/preferences')
  preferences(
    @Param('token') token: string,
    @Body() form: PageForm,
    @RequestBrowser() browser: Browser,
    @RequestPageLanguage() language: PageLanguage,
  ): Promise<Response> {
    return this.pages.setCheckinEmailPreferences(token, form, browser, language);
  }

  /** "No, thanks" on consent: records nothing. */
  @Get(':token/declined')
  declined(
    @Param('token') token: string,
    @RequestPageLanguage() language: PageLanguage,
  ): Promise<Response> {
    return this.pages.declined(token, language);
  }

  @Get(':token/done')
  done(
    @Param('token') token: string,
    @RequestPageLanguage() language: PageLanguage,
  ): Promise<Response> {
    return this.pages.done(token, language);
  }

  // `/checkin/` without a token: the same page as any other link that is not valid.
  @Get()
  withoutToken(): never {
    throw PageError.notFound();
  }
}
