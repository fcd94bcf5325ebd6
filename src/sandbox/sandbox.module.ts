import { Module } from '@nestjs/common';
import { IngestionModule } from '../ingestion/ingestion.module';
import { SessionsModule } from '../sessions/sessions.module';
import { SandboxController } from './sandbox.controller';
import { SandboxEnterpriseGuard } from './sandbox-enterprise.guard';
import { SandboxRepository } from './sandbox.repository';
import { SandboxService } from './sandbox.service';

/**
 * Sandbox enterprises (docs/integrating.md): `POST /sandbox/sessions/{sessionID}/complete` and
 * `GET /sandbox/emails`, for sandbox enterprises only (404 for the others). The mails themselves
 * are captured by the email worker (interact/sending/), which knows a sandbox's mails apart.
 */
@Module({
  imports: [SessionsModule, IngestionModule],
  controllers: [SandboxController],
  providers: [SandboxService, SandboxRepository, SandboxEnterpriseGuard],
})
export class SandboxModule {}
