import { Module } from '@nestjs/common';
import { GroupAccess } from './group-access';
import { GroupsController } from './groups.controller';
import { GroupsRepository } from './groups.repository';
import { GroupsService } from './groups.service';

@Module({
  controllers: [GroupsController],
  providers: [GroupsRepository, GroupsService, GroupAccess],
  exports: [GroupsService, GroupAccess],
})
export class GroupsModule {}
