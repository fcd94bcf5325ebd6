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
exports.DEMO_COMMANDS = exports.DemoSeedCommand = exports.DEMO_SEED_SANDBOX_NOTICE = exports.SimulateResultCommand = exports.SIMULATE_REFUSED_IN_PRODUCTION = void 0;
const common_1 = require("@nestjs/common");
const nest_commander_1 = require("nest-commander");
const ingestion_service_1 = require("../ingestion/ingestion.service");
const synthetic_result_1 = require("../ingestion/synthetic-result");
const privacy_model_1 = require("../common/privacy-model");
const enterprises_service_1 = require("../enterprises/enterprises.service");
const config_module_1 = require("../config/config.module");
const groups_service_1 = require("../groups/groups.service");
const sessions_service_1 = require("../sessions/sessions.service");
const cli_output_1 = require("./cli-output");
const DAY_MS = 86_400_000;
/** A synthetic result is made up: production records only the analysis engine's (docs/security.md). */
exports.SIMULATE_REFUSED_IN_PRODUCTION = 'sessions:simulate-result is refused in production: only the analysis engine records results';
let SimulateResultCommand = class SimulateResultCommand extends nest_commander_1.CommandRunner {
    ingestion;
    config;
    constructor(ingestion, config) {
        super();
        this.ingestion = ingestion;
        this.config = config;
    }
    parseJson() {
        return true;
    }
    async run([sessionId], options) {
        if (this.config.isProduction)
            return (0, cli_output_1.failCommand)(exports.SIMULATE_REFUSED_IN_PRODUCTION);
        try {
            const result = (0, synthetic_result_1.syntheticResult)();
            const outcome = await this.ingestion.ingest(sessionId, result, { synthetic: true });
            (0, cli_output_1.printResult)(!!options.json, { sessionID: sessionId, outcome, synthetic: true, mhci: result.mhci }, [
                outcome === 'completed'
                    ? `Recorded a SYNTHETIC result for ${sessionId} (mhci ${result.mhci}).`
                    : `${sessionId} already has a result; nothing changed.`,
            ]);
        }
        catch (error) {
            (0, cli_output_1.failCommand)(error.message);
        }
    }
};
exports.SimulateResultCommand = SimulateResultCommand;
__decorate([
    (0, nest_commander_1.Option)({ flags: '--json', description: 'print one JSON object on stdout' }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Boolean)
], SimulateResultCommand.prototype, "parseJson", null);
exports.SimulateResultCommand = SimulateResultCommand = __decorate([
    (0, nest_commander_1.Command)({
        name: 'sessions:simulate-result',
        arguments: '<sessionID>',
        description: 'Post a synthetic (clearly labelled) result for a session through the real ingestion path ' +
            '(development and test only: refused in production)',
    }),
    __param(1, (0, common_1.Inject)(config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [ingestion_service_1.IngestionService, Object])
], SimulateResultCommand);
/**
 * People per demo group: enough that a group's `mhci` and `wordcloud` reach the default privacy
 * floor (docs/metrics.md), so a newcomer sees answers rather than `null`.
 */
const DEMO_PARTICIPANTS_PER_GROUP = Math.max(privacy_model_1.PRIVACY_FLOOR.defaultScores, privacy_model_1.PRIVACY_FLOOR.defaultWords);
/**
 * Said by demo:seed: why it runs in production too (unlike `sessions:simulate-result`): what it
 * creates is a sandbox enterprise of its own, whose made-up data stays apart from every real
 * tenant and from which no mail reaches anyone.
 */
exports.DEMO_SEED_SANDBOX_NOTICE = 'This demo enterprise is a sandbox: its sessions are synthetic and its mails are captured, ' +
    'never sent, so demo:seed is allowed in production too.';
/**
 * Demo data: a sandbox enterprise (docs/integrating.md) with two groups, participants and completed
 * (synthetic) sessions.
 */
let DemoSeedCommand = class DemoSeedCommand extends nest_commander_1.CommandRunner {
    enterprises;
    groups;
    sessions;
    ingestion;
    constructor(enterprises, groups, sessions, ingestion) {
        super();
        this.enterprises = enterprises;
        this.groups = groups;
        this.sessions = sessions;
        this.ingestion = ingestion;
    }
    parseJson() {
        return true;
    }
    parseName(value) {
        return value;
    }
    async run(_, options) {
        try {
            const enterprise = await this.enterprises.create(options.name ?? 'Demo Co', {
                sandbox: true,
            });
            const summary = [];
            let participantCount = 0;
            for (const groupName of ['Engineering', 'Customer support']) {
                const group = await this.groups.create(enterprise.enterpriseId, groupName);
                let sessionCount = 0;
                for (let person = 1; person <= DEMO_PARTICIPANTS_PER_GROUP; person++) {
                    participantCount++;
                    const email = `demo.person${participantCount}@example.com`;
                    let identifier = email;
                    for (let daysAgo = 12; daysAgo >= 0; daysAgo -= 4) {
                        const created = await this.sessions.create(enterprise.enterpriseId, {
                            groupID: group.groupID,
                            groupKey: group.key,
                            userIdentifier: identifier,
                            returnURL: 'https://example.com/checkin-finished',
                        });
                        identifier = created.userIdentifier;
                        const completedAt = new Date(Date.now() - daysAgo * DAY_MS - person * 3_600_000);
                        await this.ingestion.ingest(created.sessionID, (0, synthetic_result_1.syntheticResult)(completedAt), {
                            synthetic: true,
                        });
                        sessionCount++;
                    }
                }
                summary.push({
                    groupID: group.groupID,
                    groupName,
                    groupKey: group.key,
                    sessions: sessionCount,
                });
            }
            (0, cli_output_1.printResult)(!!options.json, { ...enterprise, groups: summary }, [
                `Demo enterprise: ${enterprise.name} (${enterprise.enterpriseId})`,
                `API key (shown once): ${enterprise.apiKey}`,
                ...summary.map((group) => `Group ${group.groupID} "${group.groupName}": ${group.sessions} synthetic sessions`),
                exports.DEMO_SEED_SANDBOX_NOTICE,
                enterprises_service_1.SANDBOX_NOTE,
            ]);
        }
        catch (error) {
            (0, cli_output_1.failCommand)(error.message);
        }
    }
};
exports.DemoSeedCommand = DemoSeedCommand;
__decorate([
    (0, nest_commander_1.Option)({ flags: '--json', description: 'print one JSON object on stdout' }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Boolean)
], DemoSeedCommand.prototype, "parseJson", null);
__decorate([
    (0, nest_commander_1.Option)({ flags: '-n, --name <name>', description: 'enterprise name (default "Demo Co")' }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [String]),
    __metadata("design:returntype", String)
], DemoSeedCommand.prototype, "parseName", null);
exports.DemoSeedCommand = DemoSeedCommand = __decorate([
    (0, common_1.Injectable)(),
    (0, nest_commander_1.Command)({
        name: 'demo:seed',
        description: 'Create a demo sandbox enterprise with groups, participants and completed synthetic ' +
            'sessions (its mails are captured, never sent; allowed in production)',
    }),
    __metadata("design:paramtypes", [enterprises_service_1.EnterprisesService,
        groups_service_1.GroupsService,
        sessions_service_1.SessionsService,
        ingestion_service_1.IngestionService])
], DemoSeedCommand);
exports.DEMO_COMMANDS = [SimulateResultCommand, DemoSeedCommand];
//# sourceMappingURL=demo.commands.js.map