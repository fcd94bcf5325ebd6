import { Module } from '@nestjs/common';
import { GroupsModule } from '../groups/groups.module';
import { ParticipantsModule } from '../participants/participants.module';
import { PrivacyController } from './privacy.controller';
import { PrivacyService } from './privacy.service';

@Module({
  imports: [GroupsModule, ParticipantsModule],
  controllers: [PrivacyController],
  providers: [PrivacyService],
})
export class PrivacyModule {}
