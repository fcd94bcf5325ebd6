import { Module } from '@nestjs/common';
import { MetricRollupsRepository } from './metric-rollups.repository';

/** The feature histograms' owner, for the modules that add to them (ingestion) or subtract (erasure). */
@Module({ providers: [MetricRollupsRepository], exports: [MetricRollupsRepository] })
export class MetricRollupsModule {}
