import { Global, Module } from '@nestjs/common';
import type { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { PiiCipher } from './pii-cipher';

@Global()
@Module({
  providers: [
    {
      provide: PiiCipher,
      useFactory: (config: AppConfig) =>
        PiiCipher.fromKeys(config.dataEncryptionKey, config.dataKeys),
      inject: [APP_CONFIG],
    },
  ],
  exports: [PiiCipher],
})
export class CryptoModule {}
