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
exports.BrowserEntity = void 0;
const typeorm_1 = require("typeorm");
/**
 * Schema of `browsers` (docs/privacy.md): every browser identity the server minted, as the SHA-256
 * of the cookie value it set. A cookie value not listed here was never minted by the server (a
 * planted or forged one) and is never adopted: the browser gets a fresh identity instead. Every
 * Start replaces the browser's identity with a new one (`replaced_by`, what it held moves there):
 * a replaced value that comes back is an unknown browser.
 */
let BrowserEntity = class BrowserEntity {
    hash;
    mintedAt;
    /** The identity that replaced this one at a Start; null while it is the browser's. */
    replacedBy;
    replacedAt;
    /**
     * The device this identity was minted for: the SHA-256 of the browser's device cookie, which
     * never rotates (browser-binding.ts). The identity is that browser's only when it comes with the
     * same device cookie; null for identities minted before devices were recorded (any device).
     */
    deviceHash;
};
exports.BrowserEntity = BrowserEntity;
__decorate([
    (0, typeorm_1.PrimaryColumn)({ type: 'text', primaryKeyConstraintName: 'browsers_pkey' }),
    __metadata("design:type", String)
], BrowserEntity.prototype, "hash", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'minted_at', type: 'timestamptz', default: () => 'now()' }),
    __metadata("design:type", Date)
], BrowserEntity.prototype, "mintedAt", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'replaced_by', type: 'text', nullable: true }),
    __metadata("design:type", Object)
], BrowserEntity.prototype, "replacedBy", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'replaced_at', type: 'timestamptz', nullable: true }),
    __metadata("design:type", Object)
], BrowserEntity.prototype, "replacedAt", void 0);
__decorate([
    (0, typeorm_1.Column)({ name: 'device_hash', type: 'text', nullable: true }),
    __metadata("design:type", Object)
], BrowserEntity.prototype, "deviceHash", void 0);
exports.BrowserEntity = BrowserEntity = __decorate([
    (0, typeorm_1.Entity)({ name: 'browsers' })
    // Whether a device cookie is one the server minted.
    ,
    (0, typeorm_1.Index)('browsers_device_idx', ['deviceHash'], { where: '(device_hash IS NOT NULL)' })
], BrowserEntity);
//# sourceMappingURL=browser.entity.js.map