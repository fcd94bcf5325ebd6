"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.TracingShutdown = void 0;
const common_1 = require("@nestjs/common");
const tracing_1 = require("./tracing");
/**
 * Sends the last spans when the application closes (SIGTERM: the API after its drain, a worker
 * after its deliveries in flight have finished), before the process exits.
 */
let TracingShutdown = class TracingShutdown {
    onApplicationShutdown() {
        return (0, tracing_1.stopTracing)();
    }
};
exports.TracingShutdown = TracingShutdown;
exports.TracingShutdown = TracingShutdown = __decorate([
    (0, common_1.Injectable)()
], TracingShutdown);
//# sourceMappingURL=tracing-shutdown.js.map