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
exports.DemoBootstrap = exports.DEMO_ENTERPRISE_NAME = void 0;
exports.quickstartCommand = quickstartCommand;
const common_1 = require("@nestjs/common");
const config_module_1 = require("../config/config.module");
const enterprises_service_1 = require("./enterprises.service");
exports.DEMO_ENTERPRISE_NAME = 'Demo Enterprise';
/**
 * Outside production (DEMO_BOOTSTRAP, default on in development), an empty database gets a demo
 * enterprise so `npm start` is immediately usable. Its API key is printed once, to stdout only.
 * It is a sandbox (docs/integrating.md): a newcomer can complete sessions without the analysis engine, and
 * its mails are captured (`GET /sandbox/emails`), never sent.
 */
let DemoBootstrap = class DemoBootstrap {
    enterprises;
    config;
    constructor(enterprises, config) {
        this.enterprises = enterprises;
        this.config = config;
    }
    async runOnEmptyDatabase() {
        const created = await this.enterprises.createIfNoneExist(exports.DEMO_ENTERPRISE_NAME, {
            sandbox: true,
        });
        if (!created)
            return;
        process.stdout.write([
            '',
            `Created the sandbox enterprise "${created.name}" (${created.enterpriseId}).`,
            enterprises_service_1.SANDBOX_NOTE,
            `Its API key, shown only this once: ${created.apiKey}`,
            `Swagger UI: ${this.config.publicBaseUrl}/docs`,
            `The whole flow, with the typed client: ${quickstartCommand(this.config.publicBaseUrl, created.apiKey)}`,
            '',
        ].join('\n') + '\n');
    }
};
exports.DemoBootstrap = DemoBootstrap;
exports.DemoBootstrap = DemoBootstrap = __decorate([
    (0, common_1.Injectable)(),
    __param(1, (0, common_1.Inject)(config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [enterprises_service_1.EnterprisesService, Object])
], DemoBootstrap);
/** Where clients/typescript/examples/quickstart.ts looks without CHECKIN_BASE_URL. */
const QUICKSTART_DEFAULT_URL = 'http://localhost:3000';
/** `npm run quickstart` with this service's key (and address, when it is not the default one). */
function quickstartCommand(publicBaseUrl, apiKey) {
    const address = publicBaseUrl === QUICKSTART_DEFAULT_URL ? '' : `CHECKIN_BASE_URL=${publicBaseUrl} `;
    return `${address}CHECKIN_API_KEY=${apiKey} npm run quickstart`;
}
//# sourceMappingURL=demo-bootstrap.js.map