import { Injectable, Logger, Module } from '@nestjs/common';
import { Measurements, scrapeReading } from '../../common/measurements/measurements';
import { ProgrammesRepository } from './programmes.repository';

/**
 * How many enterprises have declared no programme (docs/compliance.md): logged once at start-up
 * by the API and the worker, and the gauge `checkin_enterprises_without_programme` on their
 * operations port, read when Prometheus scrapes.
 */
@Injectable()
export class ProgrammeCensus {
  private readonly logger = new Logger('Programmes');

  constructor(
    measurements: Measurements,
    private readonly repository: ProgrammesRepository,
  ) {
    const undeclared = scrapeReading(() => repository.undeclaredCount());
    measurements.gauge({
      name: 'checkin_enterprises_without_programme',
      help: 'Enterprises that have declared no programme (enterprises:set-programme): their check-ins infer from voice and face as before declarations existed.',
      async collect() {
        this.set((await undeclared()) ?? NaN);
      },
    });
  }

  /** The start-up line: how many enterprises have no declaration, and what to do about it. */
  async logAtStartup(): Promise<void> {
    const count = await this.repository.undeclaredCount();
    this.logger.log(
      count === 0
        ? 'Every enterprise has declared its programme'
        : `${count} ${count === 1 ? 'enterprise has' : 'enterprises have'} declared no programme: ` +
            'declare each with enterprises:set-programme (docs/compliance.md)',
    );
  }
}

@Module({ providers: [ProgrammesRepository, ProgrammeCensus], exports: [ProgrammeCensus] })
export class ProgrammeCensusModule {}
