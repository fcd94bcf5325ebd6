import { Controller, Get, Module } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { EnterpriseId } from '../common/auth/enterprise.decorator';
import { ApiEndpointErrors } from '../common/swagger/api-errors.decorator';
import { EnterpriseDto } from './dto/enterprise.dto';
import { EnterprisesModule } from './enterprises.module';
import { EnterprisesService } from './enterprises.service';

@ApiTags('Enterprise')
@Controller('enterprise')
export class EnterpriseController {
  constructor(private readonly enterprises: EnterprisesService) {}

  @Get()
  @ApiOperation({
    summary: "The caller's own settings: its declared programme and its metrics parameters",
    description:
      'What the operator set for this enterprise: the programme declaration (where and why it ' +
      'runs check-ins, docs/compliance.md), which decides whether voice and face are analysed, ' +
      'and the parameters of group metrics (docs/metrics.md): the yearly budget, the release ' +
      'window, the widest margin and the fewest participants a release needs.',
  })
  @ApiOkResponse({ type: EnterpriseDto })
  @ApiEndpointErrors([])
  get(@EnterpriseId() enterpriseId: string): Promise<EnterpriseDto> {
    return this.enterprises.settings(enterpriseId);
  }
}

/** The API's enterprise routes (the module itself is shared with the CLI, which serves none). */
@Module({ imports: [EnterprisesModule], controllers: [EnterpriseController] })
export class EnterpriseApiModule {}
