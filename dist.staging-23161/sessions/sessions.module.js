"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.SessionsModule = void 0;
const common_1 = require("@nestjs/common");
const events_module_1 = require("../webhooks/events/events.module");
const groups_module_1 = require("../groups/groups.module");
const participant_links_module_1 = require("../participant-links/participant-links.module");
const participants_module_1 = require("../participants/participants.module");
const session_records_module_1 = require("./session-records.module");
const sessions_controller_1 = require("./sessions.controller");
const sessions_service_1 = require("./sessions.service");
let SessionsModule = class SessionsModule {
};
exports.SessionsModule = SessionsModule;
exports.SessionsModule = SessionsModule = __decorate([
    (0, common_1.Module)({
        imports: [
            groups_module_1.GroupsModule,
            participants_module_1.ParticipantsModule,
            events_module_1.EventsModule,
            participant_links_module_1.ParticipantLinksModule,
            session_records_module_1.SessionRecordsModule,
        ],
        controllers: [sessions_controller_1.SessionsController],
        providers: [sessions_service_1.SessionsService],
        exports: [sessions_service_1.SessionsService, session_records_module_1.SessionRecordsModule],
    })
], SessionsModule);
//# sourceMappingURL=sessions.module.js.map