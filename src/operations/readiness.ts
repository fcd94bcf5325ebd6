import { Inject, Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import Redis from 'ioredis';
import { ShutdownState } from '../common/lifecycle/shutdown-state';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { Database } from '../database/database';

/** A check answers within this, or counts as failed: a probe must not hang on a lost network. */
const CHECK_TIMEOUT_MS = 2_000;

/** `/readyz`'s answer: ready when every check passes (docs/operations.md, "Monitoring"). */
export interface ReadinessReport {
  status: 'ready' | 'not ready';
  checks: {
    postgresql: 'ok' | 'unavailable';
    redis: 'ok' | 'unavailable';
    /** `draining` from SIGTERM on: the process is stopping. */
    shutdown: 'running' | 'draining';
  };
}

/**
 * Whether this process can do its work: PostgreSQL answers `SELECT 1` through the process's own
 * pool, Redis answers `PING` at REDIS_URL, and the process is not draining (SIGTERM). Each check
 * answers within two seconds. Redis is asked on a connection of its own that never queues a
 * command while disconnected (it fails at once) and reconnects by itself when Redis is back.
 */
@Injectable()
export class Readiness implements OnModuleInit, OnApplicationShutdown {
  private readonly redis: Redis;

  constructor(
    private readonly db: Database,
    private readonly shutdown: ShutdownState,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.redis = new Redis(config.redis.url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: CHECK_TIMEOUT_MS,
      commandTimeout: CHECK_TIMEOUT_MS,
      connectionName: 'checkin-readiness',
    });
    // Connection errors are what the check reports; ioredis keeps reconnecting.
    this.redis.on('error', () => undefined);
  }

  onModuleInit(): void {
    this.redis.connect().catch(() => undefined);
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }

  async check(): Promise<ReadinessReport> {
    const [postgresql, redis] = await Promise.all([
      passes(() => this.db.rows('SELECT 1')),
      passes(() => this.redis.ping()),
    ]);
    const checks: ReadinessReport['checks'] = {
      postgresql: postgresql ? 'ok' : 'unavailable',
      redis: redis ? 'ok' : 'unavailable',
      shutdown: this.shutdown.draining ? 'draining' : 'running',
    };
    const ready = postgresql && redis && !this.shutdown.draining;
    return { status: ready ? 'ready' : 'not ready', checks };
  }
}

/** Whether `probe` succeeds within CHECK_TIMEOUT_MS. */
async function passes(probe: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([probe().then(() => true), late]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
