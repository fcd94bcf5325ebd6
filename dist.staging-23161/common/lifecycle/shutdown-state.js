"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.LifecycleModule = exports.ShutdownState = void 0;
const common_1 = require("@nestjs/common");
/**
 * Whether the API process is draining (SIGTERM received, main.ts): `/health` answers 503 so load
 * balancers stop sending new requests, and every response carries `Connection: close` so
 * keep-alive clients reconnect elsewhere, while requests are still served normally.
 */
let ShutdownState = class ShutdownState {
    draining = false;
};
exports.ShutdownState = ShutdownState;
exports.ShutdownState = ShutdownState = __decorate([
    (0, common_1.Injectable)()
], ShutdownState);
let LifecycleModule = class LifecycleModule {
};
exports.LifecycleModule = LifecycleModule;
exports.LifecycleModule = LifecycleModule = __decorate([
    (0, common_1.Global)(),
    (0, common_1.Module)({ providers: [ShutdownState], exports: [ShutdownState] })
], LifecycleModule);
//# sourceMappingURL=shutdown-state.js.map