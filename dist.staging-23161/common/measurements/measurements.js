"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.MeasurementsModule = exports.Measurements = void 0;
exports.scrapeReading = scrapeReading;
const common_1 = require("@nestjs/common");
const prom_client_1 = require("prom-client");
/**
 * This process's Prometheus registry (docs/operations.md, "Metrics"), served as `GET /metrics`
 * on the operations port. One per application: each module registers the figures of what it does
 * when the process loads it (the API its requests, a worker its deliveries and mails), so a
 * process exposes what it runs and nothing else. No figure is labelled with a tenant,
 * participant, group or other identifier: labels take a few fixed values each.
 */
let Measurements = class Measurements {
    registry = new prom_client_1.Registry();
    counter(config) {
        return (this.registered(config.name, prom_client_1.Counter) ??
            new prom_client_1.Counter({ ...config, registers: [this.registry] }));
    }
    gauge(config) {
        return (this.registered(config.name, prom_client_1.Gauge) ?? new prom_client_1.Gauge({ ...config, registers: [this.registry] }));
    }
    histogram(config) {
        return (this.registered(config.name, prom_client_1.Histogram) ??
            new prom_client_1.Histogram({ ...config, registers: [this.registry] }));
    }
    /** The figure of that name a module sharing it registered first (one registry, one name). */
    registered(name, kind) {
        const existing = this.registry.getSingleMetric(name);
        if (existing === undefined)
            return undefined;
        if (!(existing instanceof kind))
            throw new Error(`${name} is registered as another kind`);
        return existing;
    }
};
exports.Measurements = Measurements;
exports.Measurements = Measurements = __decorate([
    (0, common_1.Injectable)()
], Measurements);
/** The registry, for every module of the process (imported by CoreModule). */
let MeasurementsModule = class MeasurementsModule {
};
exports.MeasurementsModule = MeasurementsModule;
exports.MeasurementsModule = MeasurementsModule = __decorate([
    (0, common_1.Global)(),
    (0, common_1.Module)({ providers: [Measurements], exports: [Measurements] })
], MeasurementsModule);
/**
 * A reading taken when Prometheus scrapes (in gauges' `collect()`), shared by the gauges that
 * show parts of it: prom-client collects every figure of a scrape at once, so they all receive
 * the one query in flight. A reading that fails or takes longer than `timeoutMs` yields null —
 * the gauges then show NaN — instead of failing the whole scrape: a PostgreSQL outage is what
 * /readyz and `checkin_dependency_up` report.
 */
function scrapeReading(read, timeoutMs = 3_000) {
    let inFlight = null;
    const take = async () => {
        let timer;
        const late = new Promise((resolve) => {
            timer = setTimeout(() => resolve(null), timeoutMs);
        });
        try {
            return await Promise.race([read(), late]);
        }
        catch {
            return null;
        }
        finally {
            clearTimeout(timer);
            inFlight = null;
        }
    };
    return () => (inFlight ??= take());
}
//# sourceMappingURL=measurements.js.map