"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.InteractModule = void 0;
const common_1 = require("@nestjs/common");
const groups_module_1 = require("../groups/groups.module");
const interact_controller_1 = require("./interact.controller");
const interact_repository_1 = require("./interact.repository");
const interact_service_1 = require("./interact.service");
/**
 * Email requests (HTTP: they queue mails in PostgreSQL). Sending is the worker's
 * (sending/email-worker.module.ts); the one-click unsubscribe page is a participant page
 * (pages/unsubscribe.controller.ts).
 */
let InteractModule = class InteractModule {
};
exports.InteractModule = InteractModule;
exports.InteractModule = InteractModule = __decorate([
    (0, common_1.Module)({
        imports: [groups_module_1.GroupsModule],
        controllers: [interact_controller_1.InteractController],
        providers: [interact_repository_1.InteractRepository, interact_service_1.InteractService],
        exports: [interact_repository_1.InteractRepository],
    })
], InteractModule);
//# sourceMappingURL=interact.module.js.map