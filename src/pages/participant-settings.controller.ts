import { Body, Controller, Get, Post, Query, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../common/auth/public.decorator';
import { type Browser, RequestBrowser } from './browser-binding';
import { SettingsPagesService } from './settings-pages.service';
import { HtmlPageExceptionFilter } from './html-exception.filter';
import { type PageLanguage, RequestPageLanguage } from './i18n/page-language';
import { SameOriginFormsGuard } from './same-origin-forms.guard';
import type { PageForm } from './page-forms';

/**
 * A membership's settings page, linked from emails (`?token=…`, signed for one membership):
 * privacy level and email preferences, as on the check-in page.
 */
@ApiExcludeController()
@Public()
@UseFilters(HtmlPageExceptionFilter)
// Forms posted from another site's page change nothing (same-origin-forms.guard.ts).
@UseGuards(SameOriginFormsGuard)
@Controller('participant/settings')
export class ParticipantSettingsController {
  constructor(private readonly pages: SettingsPagesService) {}

  @Get()
  page(
    @Query('token') token: unknown,
    @Query('saved') saved: unknown,
    @RequestBrowser() browser: Browser,
    @RequestPageLanguage() language: PageLanguage,
  ): Promise<Response> {
    return this.pages.settingsPage(token, saved, browser, language);
  }

  @Post('privacy')
  privacy(
    @Query('token') token: unknown,
    @Body() form: PageForm,
    @RequestBrowser() browser: Browser,
    @RequestPageLanguage() language: PageLanguage,
  ): Promise<Response> {
    return this.pages.setSettingsPrivacyLevel(token, form, browser, language);
  }

  /** The page's one form: privacy level and email preferences together. */
  @Post('choices')
  choices(
    @Query('token') token: unknown,
    @Body() form: PageForm,
    @RequestBrowser() browser: Browser,
    @RequestPageLanguage() language: PageLanguage,
  ): Promise<Response> {
    return this.pages.setSettingsChoices(token, form, browser, language);
  }

  /** Withdrawing consent and signing out links confirm first (a GET changes nothing). */
  @Get('consent/withdraw')
  confirmWithdrawConsent(
    @Query('token') token: unknown,
    @RequestBrowser() browser: Browser,
    @RequestPageLanguage() language: PageLanguage,
  ): Promise<Response> {
    return this.pages.confirmWithdrawConsent(token, browser, language);
  }

  @Get('sign-out')
  confirmSignOut(
    @Query('token') token: unknown,
    @RequestBrowser() browser: Browser,
    @RequestPageLanguage() language: PageLanguage,
  ): Promise<Response> {
    return this.pages.confirmSignOut(token, browser, language);
  }

  @Post('consent/withdraw')
  withdrawConsent(
    @Query('token') token: unknown,
    @RequestBrowser() browser: Browser,
    @RequestPageLanguage() language: PageLanguage,
  ): Promise<Response> {
    return this.pages.withdrawConsent(token, browser, language);
  }

  @Post('sign-out')
  signOut(
    @Query('token') token: unknown,
    @RequestBrowser() browser: Browser,
    @RequestPageLanguage() language: PageLanguage,
  ): Promise<Response> {
    return this.pages.signOutLinks(token, browser, language);
  }

  @Post('export')
  exportData(
    @Query('token') token: unknown,
    @RequestBrowser() browser: Browser,
    @RequestPageLanguage() language: PageLanguage,
  ): Promise<Response> {
    return this.pages.exportMyData(token, browser, language);
  }

  @Get('delete')
  confirmDelete(
    @Query('token') token: unknown,
    @RequestBrowser() browser: Browser,
    @RequestPageLanguage() language: PageLanguage,
  ): Promise<Response> {
    return this.pages.confirmDelete(token, browser, language);
  }

  @Post('delete')
  deleteData(
    @Query('token') token: unknown,
    @RequestBrowser() browser: Browser,
    @RequestPageLanguage() language: PageLanguage,
  ): Promise<Response> {
    return this.pages.deleteMyData(token, browser, language);
  }

  @Post('preferences')
  preferences(
    @Query('token') token: unknown,
    @Body() form: PageForm,
    @RequestBrowser() browser: Browser,
    @RequestPageLanguage() language: PageLanguage,
  ): Promise<Response> {
    return this.pages.setSettingsEmailPreferences(token, form, browser, language);
  }
}
