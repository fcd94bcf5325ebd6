"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.ExternalIdParam = exports.ExternalIdPipe = void 0;
const common_1 = require("@nestjs/common");
const api_error_1 = require("../errors/api-error");
const common_errors_1 = require("../errors/common.errors");
/** The `externalID` path parameter: present (else the spec's "missing" message), passed as is. */
let ExternalIdPipe = class ExternalIdPipe {
    transform(raw) {
        if (raw === undefined || raw === '')
            throw api_error_1.ApiError.badRequest((0, common_errors_1.missingPathParameter)('externalID'));
        return raw;
    }
};
exports.ExternalIdPipe = ExternalIdPipe;
exports.ExternalIdPipe = ExternalIdPipe = __decorate([
    (0, common_1.Injectable)()
], ExternalIdPipe);
const ExternalIdParam = () => (0, common_1.Param)('externalID', ExternalIdPipe);
exports.ExternalIdParam = ExternalIdParam;
//# sourceMappingURL=external-id.js.map