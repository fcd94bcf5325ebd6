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
exports.UnsubscribeController = void 0;
const common_1 = require("@nestjs/common");
const swagger_1 = require("@nestjs/swagger");
const public_decorator_1 = require("../common/auth/public.decorator");
const html_exception_filter_1 = require("./html-exception.filter");
const page_language_1 = require("./i18n/page-language");
const unsubscribe_pages_1 = require("./unsubscribe-pages");
/**
 * `/participant/unsubscribe?token=…`, the one-click unsubscribe link of every mail (public: the
 * signed token is the capability). A participant page like the others: same templates, same
 * headers, same HTML error pages.
 */
let UnsubscribeController = class UnsubscribeController {
    pages;
    constructor(pages) {
        this.pages = pages;
    }
    confirm(token, language) {
        return this.pages.confirm(token, language);
    }
    unsubscribe(token, language) {
        return this.pages.unsubscribe(token, language);
    }
};
exports.UnsubscribeController = UnsubscribeController;
__decorate([
    (0, common_1.Get)(),
    __param(0, (0, common_1.Query)('token')),
    __param(1, (0, page_language_1.RequestPageLanguage)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Function]),
    __metadata("design:returntype", Promise)
], UnsubscribeController.prototype, "confirm", null);
__decorate([
    (0, common_1.Post)(),
    __param(0, (0, common_1.Query)('token')),
    __param(1, (0, page_language_1.RequestPageLanguage)()),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object, Function]),
    __metadata("design:returntype", Promise)
], UnsubscribeController.prototype, "unsubscribe", null);
exports.UnsubscribeController = UnsubscribeController = __decorate([
    (0, swagger_1.ApiExcludeController)(),
    (0, public_decorator_1.Public)(),
    (0, common_1.UseFilters)(html_exception_filter_1.HtmlPageExceptionFilter),
    (0, common_1.Controller)('participant/unsubscribe'),
    __metadata("design:paramtypes", [unsubscribe_pages_1.UnsubscribePages])
], UnsubscribeController);
//# sourceMappingURL=unsubscribe.controller.js.map