import { Module } from '@nestjs/common';
import { IdempotencyRepository } from './idempotency.repository';
import { SessionsRepository } from './sessions.repository';

/**
 * The sessions module's tables, without its routes: for the modules that read them or ask their
 * owner to change them (ingestion, erasure, the pages, the retention worker, which has no
 * controllers).
 */
@Module({
  providers: [SessionsRepository, IdempotencyRepository],
  exports: [SessionsRepository, IdempotencyRepository],
})
export class SessionRecordsModule {}
