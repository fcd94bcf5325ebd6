import { Global, Injectable, Module } from '@nestjs/common';

/**
 * Whether the API process is draining (SIGTERM received, main.ts): `/health` answers 503 so load
 * balancers stop sending new requests, and every response carries `Connection: close` so
 * keep-alive clients reconnect elsewhere, while requests are still served normally.
 */
@Injectable()
export class ShutdownState {
  draining = false;
}

@Global()
@Module({ providers: [ShutdownState], exports: [ShutdownState] })
export class LifecycleModule {}
