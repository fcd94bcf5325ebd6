import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'checkin:isPublic';

/**
 * Marks a route as reachable without an API key. The ApiKeyGuard is global and
 * deny-by-default: every route without this decorator needs `x-api-key`.
 */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);
