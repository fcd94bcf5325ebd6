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
var __param = (this && this.__param) || function (paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); }
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.SameOriginFormsGuard = void 0;
exports.isForeignForm = isForeignForm;
const common_1 = require("@nestjs/common");
const config_module_1 = require("../config/config.module");
const page_error_1 = require("./page-error");
/**
 * Whether a form POST came from a page of another site (docs/security.md). Browsers say where a
 * request comes from in `Sec-Fetch-Site`: anything but `same-origin` (or `none`, the browser's own
 * interface) is another site's page — `same-site` too, since a sibling host is not these pages.
 * A browser too old to send it still sends `Origin` with a POST; one that is not this service's
 * public origin (including the opaque `null`) is refused as well. A client that sends neither is
 * not a browser on another site's page.
 */
function isForeignForm(headers, ownOrigin) {
    const site = headers['sec-fetch-site'];
    if (site !== undefined)
        return site !== 'same-origin' && site !== 'none';
    const origin = headers.origin;
    return origin !== undefined && origin !== ownOrigin;
}
/**
 * The participant pages change nothing on a form posted from another site: a 403 page, before
 * the handler runs. GETs pass (they change nothing). The one-click unsubscribe is not guarded: mail
 * providers post it from their own servers (RFC 8058), and it only turns mail off.
 */
let SameOriginFormsGuard = class SameOriginFormsGuard {
    ownOrigin;
    constructor(config) {
        this.ownOrigin = new URL(config.publicBaseUrl).origin;
    }
    canActivate(context) {
        const request = context.switchToHttp().getRequest();
        if (request.method === 'POST' && isForeignForm(request.headers, this.ownOrigin)) {
            throw new page_error_1.PageError(403, 'foreign-form');
        }
        return true;
    }
};
exports.SameOriginFormsGuard = SameOriginFormsGuard;
exports.SameOriginFormsGuard = SameOriginFormsGuard = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, common_1.Inject)(config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [Object])
], SameOriginFormsGuard);
//# sourceMappingURL=same-origin-forms.guard.js.map