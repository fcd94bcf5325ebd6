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
exports.DATA_COMMANDS = exports.ReencryptCommand = void 0;
const nest_commander_1 = require("nest-commander");
const reencryption_1 = require("../data-at-rest/reencryption");
const cli_output_1 = require("./cli-output");
let ReencryptCommand = class ReencryptCommand extends nest_commander_1.CommandRunner {
    reencryption;
    constructor(reencryption) {
        super();
        this.reencryption = reencryption;
    }
    parseJson() {
        return true;
    }
    async run(_, options) {
        try {
            const report = await this.reencryption.run();
            const lines = [`Re-encrypted under data key ${report.keyId}:`];
            for (const [column, count] of Object.entries(report.reencrypted)) {
                const unreadable = report.unreadable[column];
                const held = Object.entries(report.keyIds[column])
                    .map(([keyId, n]) => `${keyId} ${n}`)
                    .join(', ');
                lines.push(`  ${column}: ${count} rewritten${unreadable ? `, ${unreadable} the configured keys cannot open` : ''}; now ${held || 'none'}`);
            }
            (0, cli_output_1.printResult)(!!options.json, report, lines);
        }
        catch (error) {
            (0, cli_output_1.failCommand)(error.message);
        }
    }
};
exports.ReencryptCommand = ReencryptCommand;
__decorate([
    (0, nest_commander_1.Option)({ flags: '--json', description: 'print one JSON object on stdout' }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Boolean)
], ReencryptCommand.prototype, "parseJson", null);
exports.ReencryptCommand = ReencryptCommand = __decorate([
    (0, nest_commander_1.Command)({
        name: 'data:reencrypt',
        description: 'Re-encrypt every stored ciphertext (emails, transcripts, event data, webhook secrets, ' +
            'captured sandbox mails) under the newest data key, so older keys can be removed from ' +
            'DATA_ENCRYPTION_KEYS',
    }),
    __metadata("design:paramtypes", [reencryption_1.Reencryption])
], ReencryptCommand);
exports.DATA_COMMANDS = [ReencryptCommand];
//# sourceMappingURL=data.commands.js.map