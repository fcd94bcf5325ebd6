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
exports.ENTERPRISE_COMMANDS = exports.SetPrivacyFloorCommand = exports.RevokeApiKeyCommand = exports.ListApiKeysCommand = exports.CreateApiKeyCommand = exports.CreateEnterpriseCommand = void 0;
const common_1 = require("@nestjs/common");
const nest_commander_1 = require("nest-commander");
const privacy_model_1 = require("../common/privacy-model");
const enterprises_service_1 = require("../enterprises/enterprises.service");
const window_releaser_1 = require("../metrics/windows/window-releaser");
const cli_output_1 = require("./cli-output");
/** Decorated so its constructor's parameter types are emitted for the subclasses' injection. */
let JsonCommand = class JsonCommand extends nest_commander_1.CommandRunner {
    enterprises;
    constructor(enterprises) {
        super();
        this.enterprises = enterprises;
    }
    parseJson() {
        return true;
    }
    async guarded(work) {
        try {
            await work();
        }
        catch (error) {
            (0, cli_output_1.failCommand)(error.message);
        }
    }
};
__decorate([
    (0, nest_commander_1.Option)({ flags: '--json', description: 'print one JSON object on stdout' }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Boolean)
], JsonCommand.prototype, "parseJson", null);
JsonCommand = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [enterprises_service_1.EnterprisesService])
], JsonCommand);
/** Commands about one enterprise's keys: `--enterprise <id>`. */
class EnterpriseScopedCommand extends JsonCommand {
    parseEnterprise(value) {
        return value;
    }
}
__decorate([
    (0, nest_commander_1.Option)({ flags: '-e, --enterprise <id>', description: 'enterprise id', required: true }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String]),
    __metadata("design:returntype", String)
], EnterpriseScopedCommand.prototype, "parseEnterprise", null);
const describeKey = (key) => ({
    prefix: key.prefix,
    enterpriseId: key.enterpriseId,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
});
let CreateEnterpriseCommand = class CreateEnterpriseCommand extends JsonCommand {
    parseName(value) {
        return value;
    }
    parseSandbox() {
        return true;
    }
    async run(_, options) {
        await this.guarded(async () => {
            const created = await this.enterprises.create(options.name ?? '', {
                sandbox: !!options.sandbox,
            });
            (0, cli_output_1.printResult)(!!options.json, created, [
                `Enterprise: ${created.name} (${created.enterpriseId})`,
                `API key (shown once, store it now): ${created.apiKey}`,
                ...(created.sandbox ? [enterprises_service_1.SANDBOX_NOTE] : []),
            ]);
        });
    }
};
exports.CreateEnterpriseCommand = CreateEnterpriseCommand;
__decorate([
    (0, nest_commander_1.Option)({ flags: '-n, --name <name>', description: 'the enterprise name', required: true }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String]),
    __metadata("design:returntype", String)
], CreateEnterpriseCommand.prototype, "parseName", null);
__decorate([
    (0, nest_commander_1.Option)({
        flags: '--sandbox',
        description: 'a sandbox enterprise (test mode): sessions completed on request through ' +
            'POST /sandbox/sessions/{sessionID}/complete, mails captured at GET /sandbox/emails, never sent',
    }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Boolean)
], CreateEnterpriseCommand.prototype, "parseSandbox", null);
exports.CreateEnterpriseCommand = CreateEnterpriseCommand = __decorate([
    (0, nest_commander_1.Command)({
        name: 'enterprises:create',
        description: 'Create an enterprise and its first API key (the key is shown once)',
    })
], CreateEnterpriseCommand);
let CreateApiKeyCommand = class CreateApiKeyCommand extends EnterpriseScopedCommand {
    async run(_, options) {
        await this.guarded(async () => {
            const { apiKey, record } = await this.enterprises.createApiKey(options.enterprise);
            (0, cli_output_1.printResult)(!!options.json, { enterpriseId: record.enterpriseId, prefix: record.prefix, apiKey }, [
                `API key (shown once, store it now): ${apiKey}`,
                `Prefix (to list or revoke it): ${record.prefix}`,
            ]);
        });
    }
};
exports.CreateApiKeyCommand = CreateApiKeyCommand;
exports.CreateApiKeyCommand = CreateApiKeyCommand = __decorate([
    (0, nest_commander_1.Command)({ name: 'api-keys:create', description: 'Issue another API key for an enterprise' })
], CreateApiKeyCommand);
let ListApiKeysCommand = class ListApiKeysCommand extends EnterpriseScopedCommand {
    async run(_, options) {
        await this.guarded(async () => {
            const keys = (await this.enterprises.listApiKeys(options.enterprise)).map(describeKey);
            (0, cli_output_1.printResult)(!!options.json, { apiKeys: keys }, keys.length === 0
                ? ['No API keys.']
                : keys.map((key) => `${key.prefix}  created ${key.createdAt}  last used ${key.lastUsedAt ?? 'never'}` +
                    (key.revokedAt ? `  REVOKED ${key.revokedAt}` : '')));
        });
    }
};
exports.ListApiKeysCommand = ListApiKeysCommand;
exports.ListApiKeysCommand = ListApiKeysCommand = __decorate([
    (0, nest_commander_1.Command)({ name: 'api-keys:list', description: "List an enterprise's API keys (prefixes only)" })
], ListApiKeysCommand);
let RevokeApiKeyCommand = class RevokeApiKeyCommand extends JsonCommand {
    async run([prefix], options) {
        await this.guarded(async () => {
            const key = await this.enterprises.revokeApiKey(prefix);
            (0, cli_output_1.printResult)(!!options.json, describeKey(key), [
                `Revoked ${key.prefix} (${key.revokedAt?.toISOString()}); it stops working within seconds.`,
            ]);
        });
    }
};
exports.RevokeApiKeyCommand = RevokeApiKeyCommand;
exports.RevokeApiKeyCommand = RevokeApiKeyCommand = __decorate([
    (0, nest_commander_1.Command)({
        name: 'api-keys:revoke',
        arguments: '<prefix>',
        description: 'Revoke the API key with this prefix (ck_ + 8 characters)',
    })
], RevokeApiKeyCommand);
let SetPrivacyFloorCommand = class SetPrivacyFloorCommand extends JsonCommand {
    releaser;
    constructor(enterprises, releaser) {
        super(enterprises);
        this.releaser = releaser;
    }
    parseScores(value) {
        return value;
    }
    parseWords(value) {
        return value;
    }
    parseSpeakers(value) {
        return value;
    }
    parseBudget(value) {
        return value;
    }
    parseWindow(value) {
        return value;
    }
    parseMaxMargin(value) {
        return value;
    }
    async run([enterpriseId], options) {
        await this.guarded(async () => {
            const { json, ...settings } = options;
            // A bad value is refused before anything changes.
            this.enterprises.parsePrivacyFloor(settings);
            if ((settings.budget !== undefined || settings.window !== undefined) &&
                (await this.enterprises.exists(enterpriseId))) {
                // The window of today keeps the settings it began with: a change applies from the next.
                await this.releaser.holdCurrentWindow(enterpriseId, new Date().toISOString().slice(0, 10));
            }
            const floor = await this.enterprises.setPrivacyFloor(enterpriseId, settings);
            (0, cli_output_1.printResult)(!!json, floor, [
                `Privacy settings of ${floor.enterpriseId}: a release of group scores needs ` +
                    `${floor.minCohortScores} participants, a release of words ${floor.minCohortWords}; a ` +
                    `word needs at least ${floor.minWordSpeakers} speakers before noise; windows are ` +
                    `${floor.metricsWindow === 'week' ? 'ISO weeks' : 'months'}; each participant's ` +
                    `budget is ε_year = ${floor.epsilonYear} over any 365 days; answers with a 95 % ` +
                    `margin of avgMhci above ${floor.maxMargin} points are withheld. A change of window or ` +
                    `budget applies from the next window; the accountant leaves out of a release anyone ` +
                    `it would take over the budget in force.`,
            ]);
        });
    }
};
exports.SetPrivacyFloorCommand = SetPrivacyFloorCommand;
__decorate([
    (0, nest_commander_1.Option)({
        flags: '--scores <n>',
        description: `fewest participants in a release of group scores (${privacy_model_1.PRIVACY_FLOOR.min}–${privacy_model_1.PRIVACY_FLOOR.max}, default ${privacy_model_1.PRIVACY_FLOOR.defaultScores})`,
    }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String]),
    __metadata("design:returntype", String)
], SetPrivacyFloorCommand.prototype, "parseScores", null);
__decorate([
    (0, nest_commander_1.Option)({
        flags: '--words <n>',
        description: `fewest participants in a release of group words (${privacy_model_1.PRIVACY_FLOOR.min}–${privacy_model_1.PRIVACY_FLOOR.max}, default ${privacy_model_1.PRIVACY_FLOOR.defaultWords})`,
    }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String]),
    __metadata("design:returntype", String)
], SetPrivacyFloorCommand.prototype, "parseWords", null);
__decorate([
    (0, nest_commander_1.Option)({
        flags: '--speakers <n>',
        description: `fewest participants of a release who said a word for it to be kept (${privacy_model_1.PRIVACY_FLOOR.min}–${privacy_model_1.PRIVACY_FLOOR.max}, default ${privacy_model_1.PRIVACY_FLOOR.defaultSpeakers}; omitted: unchanged)`,
    }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String]),
    __metadata("design:returntype", String)
], SetPrivacyFloorCommand.prototype, "parseSpeakers", null);
__decorate([
    (0, nest_commander_1.Option)({
        flags: '--budget <e>',
        description: `ε_year, the yearly budget of each participant over all group releases (${privacy_model_1.METRICS_BUDGET.min}–${privacy_model_1.METRICS_BUDGET.max}, at most two decimals, default ${privacy_model_1.METRICS_BUDGET.defaultEpsilonYear}; omitted: unchanged)`,
    }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String]),
    __metadata("design:returntype", String)
], SetPrivacyFloorCommand.prototype, "parseBudget", null);
__decorate([
    (0, nest_commander_1.Option)({
        flags: '--window <kind>',
        description: `the release window, month or week (ISO), default ${privacy_model_1.METRICS_BUDGET.defaultWindow}; omitted: unchanged`,
    }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String]),
    __metadata("design:returntype", String)
], SetPrivacyFloorCommand.prototype, "parseWindow", null);
__decorate([
    (0, nest_commander_1.Option)({
        flags: '--max-margin <points>',
        description: `withhold answers whose 95 % margin of avgMhci is wider (${privacy_model_1.METRICS_BUDGET.min}–${privacy_model_1.METRICS_BUDGET.max}, default ${privacy_model_1.METRICS_BUDGET.defaultMaxMargin}; omitted: unchanged)`,
    }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String]),
    __metadata("design:returntype", String)
], SetPrivacyFloorCommand.prototype, "parseMaxMargin", null);
exports.SetPrivacyFloorCommand = SetPrivacyFloorCommand = __decorate([
    (0, nest_commander_1.Command)({
        name: 'enterprises:set-privacy-floor',
        arguments: '<enterpriseId>',
        description: 'Set the privacy settings of group metrics: how many participants a release needs (scores, ' +
            'words), how many speakers a word needs, the yearly budget per participant, the release ' +
            'window and the widest margin an answer may have (docs/metrics.md)',
    }),
    __metadata("design:paramtypes", [enterprises_service_1.EnterprisesService,
        window_releaser_1.WindowReleaser])
], SetPrivacyFloorCommand);
exports.ENTERPRISE_COMMANDS = [
    CreateEnterpriseCommand,
    CreateApiKeyCommand,
    ListApiKeysCommand,
    RevokeApiKeyCommand,
    SetPrivacyFloorCommand,
];
//# sourceMappingURL=enterprise.commands.js.map