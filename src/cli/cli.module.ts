import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '../config/config';
import { CoreModule } from '../core.module';
import { EnterprisesModule } from '../enterprises/enterprises.module';
import { ENTERPRISE_COMMANDS } from './enterprise.commands';
import { DEMO_COMMANDS } from './demo.commands';
import { DATA_COMMANDS } from './data.commands';
import { DataKeysModule } from '../data-at-rest/data-keys.module';
import { GroupsModule } from '../groups/groups.module';
import { SessionsModule } from '../sessions/sessions.module';
import { IngestionModule } from '../ingestion/ingestion.module';
import { ErasureModule } from '../erasure/erasure.module';
import { PARTICIPANT_COMMANDS } from './participant.commands';
import { MetricReleasesModule } from '../metrics/windows/metric-releases.module';

/** The operator CLI: the same services as the API, without HTTP. */
@Module({})
export class CliModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [
        CoreModule.register(config, { logs: false, poolSize: 2 }),
        EnterprisesModule,
        GroupsModule,
        SessionsModule,
        IngestionModule,
        ErasureModule,
        DataKeysModule,
        MetricReleasesModule,
      ],
      providers: [
        ...ENTERPRISE_COMMANDS,
        ...DEMO_COMMANDS,
        ...PARTICIPANT_COMMANDS,
        ...DATA_COMMANDS,
      ],
    };
  }
}
