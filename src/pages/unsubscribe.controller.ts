import { Controller, Get, Post, Query, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../common/auth/public.decorator';
import { HtmlPageExceptionFilter } from './html-exception.filter';
import { type PageLanguage, RequestPageLanguage } from './i18n/page-language';
import { UnsubscribePages } from './unsubscribe-pages';

/**
 * `/participant/unsubscribe?token=…`, the one-click unsubscribe link of every mail (public: the
 * signed token is the capability). A participant page like the others: same templates, same
 * headers, same HTML error pages.
 */
@ApiExcludeController()
@Public()
@UseFilters(HtmlPageExceptionFilter)
@Controller('participant/unsubscribe')
export class UnsubscribeController {
  constructor(private readonly pages: UnsubscribePages) {}

  @Get()
  confirm(
    @Query('token') token: unknown,
    @RequestPageLanguage() language: PageLanguage,
  ): Promise<Response> {
    return this.pages.confirm(token, language);
  }

  @Post()
  unsubscribe(
    @Query('token') token: unknown,
    @RequestPageLanguage() language: PageLanguage,
  ): Promise<Response> {
    return this.pages.unsubscribe(token, language);
  }
}
