"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.EmailWorkerModule = void 0;
const bull_1 = require("@nestjs/bull");
const common_1 = require("@nestjs/common");
const participant_links_module_1 = require("../../participant-links/participant-links.module");
const email_queue_1 = require("../email-queue");
const email_measurements_1 = require("./email-measurements");
const email_sending_repository_1 = require("./email-sending.repository");
const email_sender_1 = require("./email-sender");
const email_processor_1 = require("./email.processor");
const email_sweeper_1 = require("./email.sweeper");
const mailer_1 = require("./mailer");
/**
 * The email worker: the sweeper (queued rows in PostgreSQL → the `emails` queue) and the
 * processor (queue → SMTP), and its figures (EmailMeasurements). Imported by the worker
 * process, and by the API process only with RUN_WORKERS=true. It serves no HTTP route.
 */
let EmailWorkerModule = class EmailWorkerModule {
};
exports.EmailWorkerModule = EmailWorkerModule;
exports.EmailWorkerModule = EmailWorkerModule = __decorate([
    (0, common_1.Module)({
        imports: [bull_1.BullModule.registerQueue({ name: email_queue_1.EMAIL_QUEUE }), participant_links_module_1.ParticipantLinksModule],
        providers: [
            email_sending_repository_1.EmailSendingRepository,
            email_measurements_1.EmailMeasurements,
            mailer_1.Mailer,
            email_sender_1.EmailSender,
            email_processor_1.EmailProcessor,
            email_sweeper_1.EmailSweeper,
        ],
    })
], EmailWorkerModule);
//# sourceMappingURL=email-worker.module.js.map