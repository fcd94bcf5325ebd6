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
exports.RateLimitRefusals = void 0;
const common_1 = require("@nestjs/common");
const measurements_1 = require("../measurements/measurements");
const LIMITS = ['api_key', 'client_address', 'auth_failures'];
/**
 * `checkin_rate_limit_refusals_total{limit}` (docs/operations.md, "Metrics"): requests answered
 * 429 by each limit. Never labelled with the key, the enterprise or the address.
 */
let RateLimitRefusals = class RateLimitRefusals {
    counter;
    constructor(measurements) {
        this.counter = measurements.counter({
            name: 'checkin_rate_limit_refusals_total',
            help: 'Requests refused with 429, by limit: api_key (RATE_LIMIT_REQUESTS), client_address (PUBLIC_RATE_LIMIT_REQUESTS), auth_failures (AUTH_FAILURE_LIMIT).',
            labelNames: ['limit'],
        });
        for (const limit of LIMITS)
            this.counter.inc({ limit }, 0);
    }
    refused(limit) {
        this.counter.inc({ limit });
    }
};
exports.RateLimitRefusals = RateLimitRefusals;
exports.RateLimitRefusals = RateLimitRefusals = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [measurements_1.Measurements])
], RateLimitRefusals);
//# sourceMappingURL=rate-limit-refusals.js.map