import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { stopTracing } from './tracing';

/**
 * Sends the last spans when the application closes (SIGTERM: the API after its drain, a worker
 * after its deliveries in flight have finished), before the process exits.
 */
@Injectable()
export class TracingShutdown implements OnApplicationShutdown {
  onApplicationShutdown(): Promise<void> {
    return stopTracing();
  }
}
