"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.UpdateGroupDto = void 0;
const swagger_1 = require("@nestjs/swagger");
const rules_1 = require("../../common/validation/rules");
const groups_errors_1 = require("../groups.errors");
/** Both fields are optional; the ones sent are changed, the others kept. */
class UpdateGroupDto {
    groupName;
    consentRequired;
}
exports.UpdateGroupDto = UpdateGroupDto;
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ example: 'Day shift', maxLength: groups_errors_1.GROUP_NAME_MAX_LENGTH }),
    (0, rules_1.Rules)((0, rules_1.isString)(groups_errors_1.GroupErrors.GroupNameNotString), (0, rules_1.notBlank)(groups_errors_1.GroupErrors.GroupNameEmpty), (0, rules_1.maxLength)(groups_errors_1.GROUP_NAME_MAX_LENGTH, groups_errors_1.GroupErrors.GroupNameTooLong)),
    __metadata("design:type", String)
], UpdateGroupDto.prototype, "groupName", void 0);
__decorate([
    (0, swagger_1.ApiPropertyOptional)({ enum: ['true', 'false'], example: 'true', description: 'A string.' }),
    (0, rules_1.Rules)((0, rules_1.oneOf)(['true', 'false'], groups_errors_1.GroupErrors.ConsentRequiredInvalid)),
    __metadata("design:type", String)
], UpdateGroupDto.prototype, "consentRequired", void 0);
//# sourceMappingURL=update-group.dto.js.map