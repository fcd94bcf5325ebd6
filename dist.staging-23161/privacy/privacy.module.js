"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.PrivacyModule = void 0;
const common_1 = require("@nestjs/common");
const groups_module_1 = require("../groups/groups.module");
const participants_module_1 = require("../participants/participants.module");
const privacy_controller_1 = require("./privacy.controller");
const privacy_service_1 = require("./privacy.service");
let PrivacyModule = class PrivacyModule {
};
exports.PrivacyModule = PrivacyModule;
exports.PrivacyModule = PrivacyModule = __decorate([
    (0, common_1.Module)({
        imports: [groups_module_1.GroupsModule, participants_module_1.ParticipantsModule],
        controllers: [privacy_controller_1.PrivacyController],
        providers: [privacy_service_1.PrivacyService],
    })
], PrivacyModule);
//# sourceMappingURL=privacy.module.js.map