"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.DataKeysModule = void 0;
const common_1 = require("@nestjs/common");
const reencryption_1 = require("./reencryption");
const reencryption_repository_1 = require("./reencryption.repository");
const sealed_data_check_1 = require("./sealed-data-check");
/**
 * The operator's side of data keys: re-encryption under the newest key (CLI `data:reencrypt`),
 * and the check the API and worker processes run after start-up (SealedDataCheck).
 */
let DataKeysModule = class DataKeysModule {
};
exports.DataKeysModule = DataKeysModule;
exports.DataKeysModule = DataKeysModule = __decorate([
    (0, common_1.Module)({
        providers: [reencryption_repository_1.ReencryptionRepository, reencryption_1.Reencryption, sealed_data_check_1.SealedDataCheck],
        exports: [reencryption_1.Reencryption, sealed_data_check_1.SealedDataCheck],
    })
], DataKeysModule);
//# sourceMappingURL=data-keys.module.js.map