import { Module } from '@nestjs/common';
import { SessionRecordsModule } from '../sessions/session-records.module';
import { EventsModule } from '../webhooks/events/events.module';
import { RetentionSweeper } from './retention.sweeper';
import { TranscriptEncryption } from './transcript-encryption';

/**
 * Data at rest, worker side: the encryption pass over transcripts stored before encryption and
 * the retention sweeps (RetentionSweeper). Imported by the worker process, and by the API process
 * only with RUN_WORKERS=true. It serves no HTTP route and consumes no queue.
 */
@Module({
  imports: [SessionRecordsModule, EventsModule],
  providers: [TranscriptEncryption, RetentionSweeper],
})
export class RetentionWorkerModule {}
