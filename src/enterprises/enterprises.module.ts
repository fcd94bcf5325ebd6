import { Module } from '@nestjs/common';
import { ApiKeysService } from './api-keys.service';
import { EnterprisesRepository } from './enterprises.repository';
import { EnterprisesService } from './enterprises.service';
import { DemoBootstrap } from './demo-bootstrap';
import { ProgrammesRepository } from './programme/programmes.repository';
import { ProgrammesService } from './programme/programmes.service';

@Module({
  providers: [
    EnterprisesRepository,
    ApiKeysService,
    EnterprisesService,
    DemoBootstrap,
    ProgrammesRepository,
    ProgrammesService,
  ],
  exports: [ApiKeysService, EnterprisesService, DemoBootstrap, ProgrammesService],
})
export class EnterprisesModule {}
