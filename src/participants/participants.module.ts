import { Module } from '@nestjs/common';
import { ConsentLedgerRepository } from './consent-ledger.repository';
import { ParticipantsController } from './participants.controller';
import { ParticipantsRepository } from './participants.repository';
import { ParticipantsService } from './participants.service';

@Module({
  controllers: [ParticipantsController],
  providers: [ParticipantsRepository, ParticipantsService, ConsentLedgerRepository],
  exports: [ParticipantsRepository, ParticipantsService, ConsentLedgerRepository],
})
export class ParticipantsModule {}
