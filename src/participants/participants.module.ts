import { Module } from '@nestjs/common';
import { ConsentLedgerRepository } from './consent-ledger.repository';
import { MembershipsRepository } from './memberships.repository';
import { ParticipantsController } from './participants.controller';
import { ParticipantsRepository } from './participants.repository';
import { ParticipantsService } from './participants.service';

@Module({
  controllers: [ParticipantsController],
  providers: [
    ParticipantsRepository,
    MembershipsRepository,
    ParticipantsService,
    ConsentLedgerRepository,
  ],
  exports: [
    ParticipantsRepository,
    MembershipsRepository,
    ParticipantsService,
    ConsentLedgerRepository,
  ],
})
export class ParticipantsModule {}
