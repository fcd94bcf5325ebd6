import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { PageError } from './page-error';

type Headers = Record<string, string | string[] | undefined>;

/**
 * Whether a form POST came from a page of another site (docs/security.md). Browsers say where a
 * request comes from in `Sec-Fetch-Site`: anything but `same-origin` (or `none`, the browser's own
 * interface) is another site's page — `same-site` too, since a sibling host is not these pages.
 * A browser too old to send it still sends `Origin` with a POST; one that is not this service's
 * public origin (including the opaque `null`) is refused as well. A client that sends neither is
 * not a browser on another site's page.
 */
export function isForeignForm(headers: Headers, ownOrigin: string): boolean {
  const site = headers['sec-fetch-site'];
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  const origin = headers.origin;
  return origin !== undefined && origin !== ownOrigin;
}

/**
 * The participant pages change nothing on a form posted from another site: a 403 page, before
 * the handler runs. GETs pass (they change nothing). The one-click unsubscribe is not guarded: mail
 * providers post it from their own servers (RFC 8058), and it only turns mail off.
 */
@Injectable()
export class SameOriginFormsGuard implements CanActivate {
  private readonly ownOrigin: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.ownOrigin = new URL(config.publicBaseUrl).origin;
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ method: string; headers: Headers }>();
    if (request.method === 'POST' && isForeignForm(request.headers, this.ownOrigin)) {
      throw new PageError(403, 'foreign-form');
    }
    return true;
  }
}
