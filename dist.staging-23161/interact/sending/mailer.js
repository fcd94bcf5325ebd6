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
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
var Mailer_1;
Object.defineProperty(exports, "__esModule", { value: true });
exports.Mailer = exports.NotPlainAddressError = void 0;
exports.isPermanentSmtpFailure = isPermanentSmtpFailure;
exports.smtpFailureCode = smtpFailureCode;
const common_1 = require("@nestjs/common");
const promises_1 = require("node:fs/promises");
const node_path_1 = require("node:path");
const nodemailer_1 = __importDefault(require("nodemailer"));
const email_address_1 = require("../../common/validation/email-address");
const validators_1 = require("../../config/validators");
const config_module_1 = require("../../config/config.module");
/**
 * The recipient is not one plain address (docs/security.md): nodemailer would read it as other or
 * several recipients, so it is never handed over. Permanent; logged as its code, `EADDRESS`.
 */
class NotPlainAddressError extends Error {
    code = 'EADDRESS';
    constructor() {
        super('the recipient is not one plain email address');
        this.name = 'NotPlainAddressError';
    }
}
exports.NotPlainAddressError = NotPlainAddressError;
/**
 * An SMTP answer that will not change on retry (5xx) is permanent, and so is a recipient that is
 * not a plain address; anything else is not.
 */
function isPermanentSmtpFailure(error) {
    if (error instanceof NotPlainAddressError)
        return true;
    const code = error.responseCode;
    return typeof code === 'number' && code >= 500 && code < 600;
}
/**
 * What the email log keeps of a failure: `smtp <status code>` for an SMTP answer, else
 * nodemailer's error code (`ECONNECTION`, `ETIMEDOUT`, …), else `error` — never the text, which
 * quotes addresses (docs/data-at-rest.md).
 */
function smtpFailureCode(error) {
    const { responseCode, code } = error;
    if (typeof responseCode === 'number' && Number.isInteger(responseCode)) {
        if (responseCode >= 200 && responseCode < 600)
            return `smtp ${responseCode}`;
    }
    if (typeof code === 'string' && /^E[A-Z]{1,31}$/.test(code))
        return code;
    return 'error';
}
/** A display name is one line, and not so long that mail clients cut it oddly. */
function displayName(name) {
    const line = name.replace(/[\r\n\t]+/g, ' ').trim();
    return line.length > 78 ? `${line.slice(0, 77)}…` : line;
}
/**
 * Sends mails with nodemailer over pooled SMTP (SMTP_URL). With the file transport (the
 * development default; production only with MAIL_TRANSPORT=file), each mail is written as
 * `<MAIL_DIR>/<id>.eml`, so a laptop run still shows what would have been sent.
 */
let Mailer = Mailer_1 = class Mailer {
    config;
    logger = new common_1.Logger(Mailer_1.name);
    transport;
    mailDir;
    /** EMAIL_FROM's address (its display name, if any, is replaced by each mail's sender). */
    fromAddress;
    constructor(config) {
        this.config = config;
        const { transport, smtpUrl, mailDir, from } = config.email;
        // The configuration accepts only an EMAIL_FROM with one plain address (config.ts).
        this.fromAddress = (0, validators_1.senderAddress)(from) ?? from;
        if (transport === 'smtp' && smtpUrl) {
            const url = new URL(smtpUrl);
            url.searchParams.set('pool', 'true');
            this.transport = nodemailer_1.default.createTransport(url.toString());
            this.mailDir = null;
        }
        else {
            this.transport = nodemailer_1.default.createTransport({ streamTransport: true, buffer: true });
            this.mailDir = (0, node_path_1.resolve)(mailDir);
        }
    }
    /**
     * Sends to `mail.to`, which must be one plain address: it is handed to nodemailer as an address
     * object, never as a string nodemailer would parse into a list (NotPlainAddressError otherwise).
     */
    async send(mail) {
        const address = (0, email_address_1.plainEmailAddress)(mail.to);
        if (address === null)
            throw new NotPlainAddressError();
        const info = (await this.transport.sendMail({
            from: { name: displayName(mail.fromName), address: this.fromAddress },
            to: { name: '', address },
            subject: mail.subject,
            text: mail.text,
            html: mail.html,
            headers: mail.headers,
        }));
        if (this.mailDir && info.message) {
            await (0, promises_1.mkdir)(this.mailDir, { recursive: true });
            const file = (0, node_path_1.join)(this.mailDir, `${mail.id}.eml`);
            await (0, promises_1.writeFile)(file, info.message);
            this.logger.log(`File mail transport: mail written to ${file}`);
        }
    }
    onModuleDestroy() {
        this.transport.close();
    }
};
exports.Mailer = Mailer;
exports.Mailer = Mailer = Mailer_1 = __decorate([
    (0, common_1.Injectable)(),
    __param(0, (0, common_1.Inject)(config_module_1.APP_CONFIG)),
    __metadata("design:paramtypes", [Object])
], Mailer);
//# sourceMappingURL=mailer.js.map