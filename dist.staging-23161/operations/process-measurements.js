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
Object.defineProperty(exports, "__esModule", { value: true });
exports.ProcessMeasurements = void 0;
const common_1 = require("@nestjs/common");
const prom_client_1 = require("prom-client");
const measurements_1 = require("../common/measurements/measurements");
const database_1 = require("../database/database");
const readiness_1 = require("./readiness");
/** The pool's figures: name, the field of Database.poolUse() it shows, help. */
const POOL_GAUGES = [
    [
        'checkin_db_pool_connections',
        'total',
        "Connections open in the process's PostgreSQL pool, in use or idle.",
    ],
    ['checkin_db_pool_idle_connections', 'idle', 'Open connections of the pool that are idle.'],
    [
        'checkin_db_pool_waiting_requests',
        'waiting',
        'Queries waiting for a connection of the pool (all DB_POOL_SIZE in use).',
    ],
    ['checkin_db_pool_max_connections', 'max', 'The most connections the pool opens (DB_POOL_SIZE).'],
];
/**
 * The figures every long-running process exposes (docs/operations.md, "Metrics"): Node's default
 * process metrics (CPU, memory, event-loop lag, garbage collection, handles), the PostgreSQL pool's
 * use, read when Prometheus scrapes, and readiness as `/readyz` reports it.
 */
let ProcessMeasurements = class ProcessMeasurements {
    constructor(measurements, db, readiness) {
        (0, prom_client_1.collectDefaultMetrics)({ register: measurements.registry });
        for (const [name, field, help] of POOL_GAUGES) {
            measurements.gauge({
                name,
                help,
                collect() {
                    this.set(db.poolUse()[field]);
                },
            });
        }
        const report = (0, measurements_1.scrapeReading)(() => readiness.check());
        measurements.gauge({
            name: 'checkin_ready',
            help: '1 when the process is ready, as /readyz says (PostgreSQL and Redis answer, not draining); else 0.',
            async collect() {
                this.set((await report())?.status === 'ready' ? 1 : 0);
            },
        });
        measurements.gauge({
            name: 'checkin_dependency_up',
            help: '1 when the dependency answers the readiness check (PostgreSQL: SELECT 1, Redis: PING), else 0.',
            labelNames: ['dependency'],
            async collect() {
                const checks = (await report())?.checks;
                this.set({ dependency: 'postgresql' }, checks?.postgresql === 'ok' ? 1 : 0);
                this.set({ dependency: 'redis' }, checks?.redis === 'ok' ? 1 : 0);
            },
        });
    }
};
exports.ProcessMeasurements = ProcessMeasurements;
exports.ProcessMeasurements = ProcessMeasurements = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [measurements_1.Measurements, database_1.Database, readiness_1.Readiness])
], ProcessMeasurements);
//# sourceMappingURL=process-measurements.js.map