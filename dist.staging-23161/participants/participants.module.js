"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.ParticipantsModule = void 0;
const common_1 = require("@nestjs/common");
const consent_ledger_repository_1 = require("./consent-ledger.repository");
const memberships_repository_1 = require("./memberships.repository");
const participants_controller_1 = require("./participants.controller");
const participants_repository_1 = require("./participants.repository");
const participants_service_1 = require("./participants.service");
let ParticipantsModule = class ParticipantsModule {
};
exports.ParticipantsModule = ParticipantsModule;
exports.ParticipantsModule = ParticipantsModule = __decorate([
    (0, common_1.Module)({
        controllers: [participants_controller_1.ParticipantsController],
        providers: [
            participants_repository_1.ParticipantsRepository,
            memberships_repository_1.MembershipsRepository,
            participants_service_1.ParticipantsService,
            consent_ledger_repository_1.ConsentLedgerRepository,
        ],
        exports: [
            participants_repository_1.ParticipantsRepository,
            memberships_repository_1.MembershipsRepository,
            participants_service_1.ParticipantsService,
            consent_ledger_repository_1.ConsentLedgerRepository,
        ],
    })
], ParticipantsModule);
//# sourceMappingURL=participants.module.js.map