import { BullModule } from '@nestjs/bull';
import type { DynamicModule } from '@nestjs/common';
import type { AppConfig } from '../config/config';

/** The Bull connection every process shares: REDIS_URL, keys under QUEUE_PREFIX. */
export const bullRoot = (config: AppConfig): DynamicModule =>
  BullModule.forRoot({ url: config.redis.url, prefix: config.redis.queuePrefix });
