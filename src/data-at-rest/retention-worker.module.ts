import { Module } from '@nestjs/common';
import { RetentionRepository } from './retention.repository';
import { RetentionSweeper } from './retention.sweeper';
import { TranscriptEncryption } from './transcript-encryption';

/**
 * Data at rest, worker side: the encryption pass over transcripts stored before encryption and
 * the retention sweeps (RetentionSweeper). Imported by the worker process, and by the API process
 * only with RUN_WORKERS=true. It serves no HTTP route and consumes no queue.
 */
@Module({ providers: [RetentionRepository, TranscriptEncryption, RetentionSweeper] })
export class RetentionWorkerModule {}
