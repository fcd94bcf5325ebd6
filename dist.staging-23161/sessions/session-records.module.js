"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.SessionRecordsModule = void 0;
const common_1 = require("@nestjs/common");
const idempotency_repository_1 = require("./idempotency.repository");
const sessions_repository_1 = require("./sessions.repository");
/**
 * The sessions module's tables, without its routes: for the modules that read them or ask their
 * owner to change them (ingestion, erasure, the pages, the retention worker, which has no
 * controllers).
 */
let SessionRecordsModule = class SessionRecordsModule {
};
exports.SessionRecordsModule = SessionRecordsModule;
exports.SessionRecordsModule = SessionRecordsModule = __decorate([
    (0, common_1.Module)({
        providers: [sessions_repository_1.SessionsRepository, idempotency_repository_1.IdempotencyRepository],
        exports: [sessions_repository_1.SessionsRepository, idempotency_repository_1.IdempotencyRepository],
    })
], SessionRecordsModule);
//# sourceMappingURL=session-records.module.js.map