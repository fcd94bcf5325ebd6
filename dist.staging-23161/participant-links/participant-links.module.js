"use strict";
var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.ParticipantLinksModule = void 0;
const common_1 = require("@nestjs/common");
const link_tokens_1 = require("./link-tokens");
const participant_links_1 = require("./participant-links");
/** Participants' signed links: sessions mint check-in links, emails settings and unsubscribe
 * links, and the participant pages read them. */
let ParticipantLinksModule = class ParticipantLinksModule {
};
exports.ParticipantLinksModule = ParticipantLinksModule;
exports.ParticipantLinksModule = ParticipantLinksModule = __decorate([
    (0, common_1.Module)({ providers: [link_tokens_1.LinkTokens, participant_links_1.ParticipantLinks], exports: [participant_links_1.ParticipantLinks, link_tokens_1.LinkTokens] })
], ParticipantLinksModule);
//# sourceMappingURL=participant-links.module.js.map