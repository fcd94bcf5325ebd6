import { Module } from '@nestjs/common';
import { Reencryption } from './reencryption';
import { ReencryptionRepository } from './reencryption.repository';

/** The operator's side of data keys: re-encryption under the newest key (CLI `data:reencrypt`). */
@Module({ providers: [ReencryptionRepository, Reencryption], exports: [Reencryption] })
export class DataKeysModule {}
