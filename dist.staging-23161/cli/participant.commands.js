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
exports.PARTICIPANT_COMMANDS = exports.EraseParticipantCommand = void 0;
const common_1 = require("@nestjs/common");
const nest_commander_1 = require("nest-commander");
const erasure_service_1 = require("../erasure/erasure.service");
const participants_errors_1 = require("../participants/participants.errors");
const cli_output_1 = require("./cli-output");
/** Erases a participant on the operator's authority (docs/privacy.md); external IDs are unique. */
let EraseParticipantCommand = class EraseParticipantCommand extends nest_commander_1.CommandRunner {
    erasure;
    constructor(erasure) {
        super();
        this.erasure = erasure;
    }
    parseJson() {
        return true;
    }
    async run([externalId], options) {
        try {
            if (!(await this.erasure.erase(externalId, { by: 'operator' }))) {
                (0, cli_output_1.failCommand)(participants_errors_1.ParticipantErrors.NotFound);
                return;
            }
            (0, cli_output_1.printResult)(!!options.json, { externalID: externalId, erased: true }, [
                `Erased ${externalId}. Each of their groups received a user.deleted event.`,
            ]);
        }
        catch (error) {
            (0, cli_output_1.failCommand)(error.message);
        }
    }
};
exports.EraseParticipantCommand = EraseParticipantCommand;
__decorate([
    (0, nest_commander_1.Option)({ flags: '--json', description: 'print one JSON object on stdout' }),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", []),
    __metadata("design:returntype", Boolean)
], EraseParticipantCommand.prototype, "parseJson", null);
exports.EraseParticipantCommand = EraseParticipantCommand = __decorate([
    (0, common_1.Injectable)(),
    (0, nest_commander_1.Command)({
        name: 'participants:erase',
        arguments: '<externalID>',
        description: "Erase a participant: identity, sessions, results, mails, and their metrics' share",
    }),
    __metadata("design:paramtypes", [erasure_service_1.ErasureService])
], EraseParticipantCommand);
exports.PARTICIPANT_COMMANDS = [EraseParticipantCommand];
//# sourceMappingURL=participant.commands.js.map