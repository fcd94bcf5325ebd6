import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { AppConfig } from '../config/config';
import { AppConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { buildDataSourceOptions } from '../database/typeorm-options';
import { EnterprisesModule } from '../enterprises/enterprises.module';
import { ENTERPRISE_COMMANDS } from './enterprise.commands';
import { DEMO_COMMANDS } from './demo.commands';
import { CryptoModule } from '../common/crypto/crypto.module';
import { GroupsModule } from '../groups/groups.module';
import { SessionsModule } from '../sessions/sessions.module';
import { IngestionModule } from '../checkin/ingestion/ingestion.module';

/** The operator CLI: the same services as the API, without HTTP. */
@Module({})
export class CliModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [
        AppConfigModule.register(config),
        TypeOrmModule.forRoot({ ...buildDataSourceOptions(config), extra: { max: 2 } }),
        DatabaseModule,
        EnterprisesModule,
        CryptoModule,
        GroupsModule,
        SessionsModule,
        IngestionModule,
      ],
      providers: [...ENTERPRISE_COMMANDS, ...DEMO_COMMANDS],
    };
  }
}
