"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isRunnableJobState = exports.OutboxSweeper = void 0;
exports.withTimeout = withTimeout;
const common_1 = require("@nestjs/common");
const pg_1 = require("pg");
/**
 * Moves due rows of an outbox table (webhook deliveries, emails) into their Bull queue. It wakes
 * on a PostgreSQL NOTIFY channel (sent at commit by the transaction that wrote the rows) and on an
 * interval regardless, so nothing depends on Redis having kept anything: after a Redis restart or
 * flush, the next sweep queues the rows again. Sweeps never overlap; a wake-up during a sweep
 * runs one more right after it.
 */
class OutboxSweeper {
    channel;
    databaseUrl;
    intervalMs;
    logger;
    stopped = false;
    timer = null;
    listener = null;
    running = false;
    again = false;
    constructor(name, channel, databaseUrl, intervalMs) {
        this.channel = channel;
        this.databaseUrl = databaseUrl;
        this.intervalMs = intervalMs;
        this.logger = new common_1.Logger(name);
    }
    /**
     * A NOTIFY arrived: rows were committed. Sweeps now (or right after the one in progress); a
     * sweeper whose process can act on the rows itself wakes that first (DeliverySweeper).
     */
    notified() {
        this.sweep();
    }
    /** Runs after sweeping has stopped, before the queues and pools close. */
    async afterStop() { }
    onApplicationBootstrap() {
        this.timer = setInterval(() => this.sweep(), this.intervalMs);
        void this.listen();
        this.sweep();
    }
    async beforeApplicationShutdown() {
        this.stopped = true;
        if (this.timer)
            clearInterval(this.timer);
        await this.listener?.end().catch(() => undefined);
        await this.afterStop();
    }
    /** Runs a sweep now, or right after the one in progress. */
    sweep() {
        if (this.stopped)
            return;
        if (this.running) {
            this.again = true;
            return;
        }
        this.running = true;
        void this.sweepOnce()
            .catch((error) => this.logger.warn(`Sweep failed: ${error.message}`))
            .finally(() => {
            this.running = false;
            if (this.again) {
                this.again = false;
                this.sweep();
            }
        });
    }
    async listen() {
        if (this.stopped)
            return;
        const client = new pg_1.Client({ connectionString: this.databaseUrl });
        client.on('notification', () => this.notified());
        client.on('error', () => {
            this.listener = null;
            void client.end().catch(() => undefined);
            setTimeout(() => void this.listen(), 1_000);
        });
        try {
            await client.connect();
            if (this.stopped) {
                await client.end();
                return;
            }
            await client.query(`LISTEN ${this.channel}`);
            this.listener = client;
        }
        catch {
            await client.end().catch(() => undefined);
            setTimeout(() => void this.listen(), 1_000);
        }
    }
}
exports.OutboxSweeper = OutboxSweeper;
/** Resolves with the promise's value, or undefined once `ms` have passed. */
async function withTimeout(promise, ms) {
    let timer;
    const timedOut = new Promise((resolve) => {
        timer = setTimeout(() => resolve(undefined), ms);
    });
    try {
        return await Promise.race([promise, timedOut]);
    }
    finally {
        clearTimeout(timer);
    }
}
/**
 * Whether Bull will still run a job in this state. Anything else ('completed', 'failed', or
 * 'stuck': a job hash no list holds, seen after a Redis crash) will never run, and Bull ignores
 * re-adding its id: the sweepers then queue the work again.
 */
const isRunnableJobState = (state) => state === 'waiting' || state === 'delayed' || state === 'active' || state === 'paused';
exports.isRunnableJobState = isRunnableJobState;
//# sourceMappingURL=outbox-sweeper.js.map