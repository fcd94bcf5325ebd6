import { Module } from '@nestjs/common';
import { Reencryption } from './reencryption';
import { ReencryptionRepository } from './reencryption.repository';
import { SealedDataCheck } from './sealed-data-check';

/**
 * The operator's side of data keys: re-encryption under the newest key (CLI `data:reencrypt`),
 * and the check the API and worker processes run after start-up (SealedDataCheck).
 */
@Module({
  providers: [ReencryptionRepository, Reencryption, SealedDataCheck],
  exports: [Reencryption, SealedDataCheck],
})
export class DataKeysModule {}
