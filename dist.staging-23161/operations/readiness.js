"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.Readiness = void 0;
const common_1 = require("@nestjs/common");
const ioredis_1 = __importDefault(require("ioredis"));
const shutdown_state_1 = require("../common/lifecycle/shutdown-state");
const config_module_1 = require("../config/config.module");
const database_1 = require("../database/database");
/** A check answers within this, or counts as failed: a probe must not hang on a lost network. */
const CHECK_TIMEOUT_MS = 2_000;
/**
 * Whether this process can do its work: PostgreSQL answers `SELECT 1` through the process's own
 * pool, Redis answers `PING` at REDIS_URL, and the process is not draining (SIGTERM). Each check
 * answers within two seconds. Redis is asked on a connection of its own that never queues a
 * command while disconnected (it fails at once) and reconnects by itself when Redis is back.
 */
let Readiness = class Readiness {
    db;
    shutdown;
    redis;
    constructor(db, shutdown, config) {
        this.db = db;
        this.shutdown = shutdown;
        this.redis = new ioredis_1.default(config.redis.url, {
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
    onModuleInit() {
        this.redis.connect().catch(() => undefined);
    }
    onApplicationShutdown() {
        this.redis.disconnect();
    }
    async check() {
        const [postgresql, redis] = await Promise.all([
            passes(() => this.db.rows('SELECT 1')),
            passes(() => this.redis.ping()),
        ]);
        const checks = {
            postgresql: postgresql ? 'ok' : 'unavailable',
            redis: redis ? 'ok' : 'unavailable',
            shutdown: this.shutdown.draining ? 'draining' : 'running',
        };
        const ready = postgresql && redis && !this.shutdown.draining;
        return { status: ready ? 'ready' : 'not ready', checks };
    }
};
exports.Readiness = Readiness;
exports.Readiness = Readiness = __decorate([
    (0, common_1.Injectable)(),
    __param(2, (0, common_1.Inject)(config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [database_1.Database,
        shutdown_state_1.ShutdownState, Object])
], Readiness);
/** Whether `probe` succeeds within CHECK_TIMEOUT_MS. */
async function passes(probe) {
    let timer;
    const late = new Promise((resolve) => {
        timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
    });
    try {
        return await Promise.race([probe().then(() => true), late]);
    }
    catch {
        return false;
    }
    finally {
        clearTimeout(timer);
    }
}
//# sourceMappingURL=readiness.js.map