import { Module } from '@nestjs/common';
import { ApiKeysService } from './api-keys.service';
import { EnterprisesRepository } from './enterprises.repository';
import { EnterprisesService } from './enterprises.service';
import { DemoBootstrap } from './demo-bootstrap';

@Module({
  providers: [EnterprisesRepository, ApiKeysService, EnterprisesService, DemoBootstrap],
  exports: [ApiKeysService, EnterprisesService, DemoBootstrap],
})
export class EnterprisesModule {}
