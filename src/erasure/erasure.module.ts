import { Module } from '@nestjs/common';
import { EventsModule } from '../webhooks/events/events.module';
import { ParticipantsModule } from '../participants/participants.module';
import { ErasureController } from './erasure.controller';
import { ErasureRepository } from './erasure.repository';
import { ErasureService } from './erasure.service';

/**
 * Erasure of a participant (DESIGN §14): `DELETE /participants/{externalID}` for the enterprise,
 * the settings page's "Delete my data" for the participant, `participants:erase` for the operator.
 */
@Module({
  imports: [ParticipantsModule, EventsModule],
  controllers: [ErasureController],
  providers: [ErasureRepository, ErasureService],
  exports: [ErasureService],
})
export class ErasureModule {}
