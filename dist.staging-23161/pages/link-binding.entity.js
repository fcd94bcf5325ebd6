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
exports.LinkBindingEntity = void 0;
const typeorm_1 = require("typeorm");
const entity_columns_1 = require("../database/entity-columns");
const participant_entity_1 = require("../participants/participant.entity");
/**
 * Schema of `link_bindings` (docs/privacy.md): which browser a participant link belongs to. A
 * check-in link binds on "Start" (`checkin:<session id>`), a settings link on its first POST
 * (`settings:<sha256 of the token>`); the browser is the SHA-256 of a random HttpOnly cookie.
 * Another browser is refused and changes nothing.
 */
let LinkBindingEntity = class LinkBindingEntity {
    link;
    browserHash;
    participantId;
    boundAt;
};
exports.LinkBindingEntity = LinkBindingEntity;
__decorate([
    (0, typeorm_1.PrimaryColumn)({ type: 'text', primaryKeyConstraintName: 'link_bindings_pkey' }),
    __metadata("design:type", String)
], LinkBindingEntity.prototype, "link", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'browser_hash', type: 'text' }),
    __metadata("design:type", String)
], LinkBindingEntity.prototype, "browserHash", void 0);
__decorate([
    (0, entity_columns_1.ForeignKey)(() => participant_entity_1.ParticipantEntity, 'uuid', 'link_bindings_participant_fkey'),
    __metadata("design:type", String)
], LinkBindingEntity.prototype, "participantId", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'bound_at', type: 'timestamptz', default: () => 'now()' }),
    __metadata("design:type", Date)
], LinkBindingEntity.prototype, "boundAt", void 0);
exports.LinkBindingEntity = LinkBindingEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'link_bindings' })
    // A participant's bindings: moved on "Sign out my links", deleted with the participant.
    ,
    (0, typeorm_1.Index)('link_bindings_participant_idx', ['participantId'])
    // A browser's links: moved when its identity is replaced at a Start.
    ,
    (0, typeorm_1.Index)('link_bindings_browser_idx', ['browserHash'])
], LinkBindingEntity);
//# sourceMappingURL=link-binding.entity.js.map