"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.ParticipantChoicesModule = void 0;
const common_1 = require("@nestjs/common");
const interact_module_1 = require("../interact/interact.module");
const metric_rollups_module_1 = require("../metrics/rollups/metric-rollups.module");
const participants_module_1 = require("../participants/participants.module");
const session_records_module_1 = require("../sessions/session-records.module");
const events_module_1 = require("../webhooks/events/events.module");
const participant_choices_1 = require("./participant-choices");
/** The participant's choices (participant-choices.ts), for the pages that offer them. */
let ParticipantChoicesModule = class ParticipantChoicesModule {
};
exports.ParticipantChoicesModule = ParticipantChoicesModule;
exports.ParticipantChoicesModule = ParticipantChoicesModule = __decorate([
    (0, common_1.Module)({
        imports: [
            participants_module_1.ParticipantsModule,
            session_records_module_1.SessionRecordsModule,
            events_module_1.EventsModule,
            interact_module_1.InteractModule,
            metric_rollups_module_1.MetricRollupsModule,
        ],
        providers: [participant_choices_1.ParticipantChoices],
        exports: [participant_choices_1.ParticipantChoices],
    })
], ParticipantChoicesModule);
//# sourceMappingURL=participant-choices.module.js.map