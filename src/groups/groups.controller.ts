import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RouteSchema } from '@nestjs/platform-fastify';
import { GROUP_SCHEMA, okAnswer } from '../common/http/response-schemas';
import { EnterpriseId } from '../common/auth/enterprise.decorator';
import { ApiEndpointErrors } from '../common/swagger/api-errors.decorator';
import { EXAMPLE_IDS } from '../common/swagger/examples';
import { AbsentPathParameters, GroupIdParam } from '../common/validation/path-params';
import { CreateGroupDto } from './dto/create-group.dto';
import { GroupDto } from './dto/group.dto';
import { MessageDto, SUCCESS } from '../common/http/message.dto';
import { UpdateGroupDto } from './dto/update-group.dto';
import { GroupErrors } from './groups.errors';
import { GroupsService } from './groups.service';

@ApiTags('Groups')
@Controller('groups')
// `PUT /groups/`, `DELETE /groups/` (the router ignores a trailing slash), `GET /groups//participants`.
@AbsentPathParameters(
  { method: 'PUT', path: '', missing: 'groupID' },
  { method: 'DELETE', path: '', missing: 'groupID' },
  { method: 'GET', path: '//participants', missing: 'groupID' },
)
export class GroupsController {
  constructor(private readonly groups: GroupsService) {}

  @Get()
  @RouteSchema(okAnswer({ type: 'array', items: GROUP_SCHEMA }))
  @ApiOperation({ summary: "List the enterprise's groups" })
  @ApiOkResponse({ type: [GroupDto] })
  @ApiEndpointErrors([])
  list(@EnterpriseId() enterpriseId: string): Promise<GroupDto[]> {
    return this.groups.list(enterpriseId);
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Create a group' })
  @ApiOkResponse({ type: GroupDto })
  @ApiEndpointErrors([
    GroupErrors.GroupNameMissing,
    GroupErrors.GroupNameNotString,
    GroupErrors.GroupNameEmpty,
    GroupErrors.GroupNameTooLong,
  ])
  create(@EnterpriseId() enterpriseId: string, @Body() body: CreateGroupDto): Promise<GroupDto> {
    return this.groups.create(enterpriseId, body.groupName);
  }

  @Put(':groupID')
  @ApiOperation({ summary: 'Rename a group or change whether it requires consent' })
  @ApiOkResponse({ type: GroupDto })
  @ApiEndpointErrors([
    GroupErrors.GroupIdMissing,
    GroupErrors.GroupIdNotNumber,
    GroupErrors.GroupNameNotString,
    GroupErrors.GroupNameEmpty,
    GroupErrors.GroupNameTooLong,
    GroupErrors.ConsentRequiredInvalid,
    GroupErrors.NotFound,
  ])
  update(
    @GroupIdParam() groupId: number,
    @EnterpriseId() enterpriseId: string,
    @Body() body: UpdateGroupDto,
  ): Promise<GroupDto> {
    return this.groups.update(enterpriseId, groupId, body);
  }

  @Delete(':groupID')
  @ApiOperation({ summary: 'Delete a group and everything that belongs to it' })
  @ApiOkResponse({ type: MessageDto })
  @ApiEndpointErrors([
    GroupErrors.GroupIdMissing,
    GroupErrors.GroupIdNotNumber,
    GroupErrors.NotFound,
  ])
  async remove(
    @GroupIdParam() groupId: number,
    @EnterpriseId() enterpriseId: string,
  ): Promise<MessageDto> {
    await this.groups.remove(enterpriseId, groupId);
    return SUCCESS;
  }

  @Get(':groupID/participants')
  @ApiOperation({ summary: "External IDs of the group's participants" })
  @ApiOkResponse({
    schema: { type: 'array', items: { type: 'string', example: EXAMPLE_IDS.externalId } },
  })
  @ApiEndpointErrors([
    GroupErrors.GroupIdMissing,
    GroupErrors.GroupIdNotNumber,
    GroupErrors.NotFound,
  ])
  listParticipants(
    @GroupIdParam() groupId: number,
    @EnterpriseId() enterpriseId: string,
  ): Promise<string[]> {
    return this.groups.listParticipants(enterpriseId, groupId);
  }
}
