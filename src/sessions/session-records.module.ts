import { Module } from '@nestjs/common';
import { IdempotencyRepository } from './idempotency.repository';
import { SessionAccess } from './session-access';
import { SessionsRepository } from './sessions.repository';

/**
 * The sessions module's tables, without its routes: for the modules that read them or ask their
 * owner to change them (ingestion, erasure, the pages, the retention worker, which has no
 * controllers).
 */
@Module({
  providers: [SessionsRepository, IdempotencyRepository, SessionAccess],
  exports: [SessionsRepository, IdempotencyRepository, SessionAccess],
})
export class SessionRecordsModule {}
