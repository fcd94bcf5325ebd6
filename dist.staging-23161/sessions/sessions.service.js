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
exports.SessionsService = void 0;
const common_1 = require("@nestjs/common");
const pii_cipher_1 = require("../common/crypto/pii-cipher");
const sealed_reads_1 = require("../common/crypto/sealed-reads");
const secrets_1 = require("../common/crypto/secrets");
const api_error_1 = require("../common/errors/api-error");
const ids_1 = require("../common/ids");
const email_address_1 = require("../common/validation/email-address");
const database_1 = require("../database/database");
const events_1 = require("../webhooks/events/events");
const events_repository_1 = require("../webhooks/events/events.repository");
const groups_repository_1 = require("../groups/groups.repository");
const memberships_repository_1 = require("../participants/memberships.repository");
const participants_repository_1 = require("../participants/participants.repository");
const participant_links_1 = require("../participant-links/participant-links");
const idempotency_repository_1 = require("./idempotency.repository");
const return_url_1 = require("./return-url");
const session_view_1 = require("./session-view");
const sessions_errors_1 = require("./sessions.errors");
const sessions_repository_1 = require("./sessions.repository");
const transcript_codec_1 = require("./transcript-codec");
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
const FOREIGN_KEY_VIOLATION = '23503';
/**
 * Session creation (docs/checkin-flow.md): checks in the spec's order, then one transaction that finds or
 * creates the participant's identity and membership, writes the session and, for a new identity,
 * the `user.created` event.
 */
let SessionsService = class SessionsService {
    db;
    groups;
    participants;
    memberships;
    sessions;
    events;
    idempotency;
    cipher;
    links;
    constructor(db, groups, participants, memberships, sessions, events, idempotency, cipher, links) {
        this.db = db;
        this.groups = groups;
        this.participants = participants;
        this.memberships = memberships;
        this.sessions = sessions;
        this.events = events;
        this.idempotency = idempotency;
        this.cipher = cipher;
        this.links = links;
    }
    async create(enterpriseId, request, idempotencyKey) {
        if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
            throw api_error_1.ApiError.badRequest(sessions_errors_1.SessionErrors.IdempotencyKeyInvalid);
        }
        const groupId = request.groupID;
        const group = Number.isSafeInteger(groupId) && groupId > 0
            ? await this.groups.findForEnterprise(enterpriseId, groupId)
            : null;
        if (!group)
            throw api_error_1.ApiError.badRequest(sessions_errors_1.SessionErrors.GroupNotFound);
        if (!(0, secrets_1.sameSecret)(request.groupKey, group.key)) {
            throw api_error_1.ApiError.badRequest(sessions_errors_1.SessionErrors.InvalidGroupKey);
        }
        // An ok_ id, or one plain email address (docs/security.md): what is stored is the parsed address.
        const trimmed = request.userIdentifier.trim();
        const isExternalId = ids_1.EXTERNAL_ID_PATTERN.test(trimmed);
        const identifier = isExternalId ? trimmed : (0, email_address_1.plainEmailAddress)(trimmed);
        if (identifier === null)
            throw api_error_1.ApiError.badRequest(sessions_errors_1.SessionErrors.IdentifierInvalid);
        // Stored normalised (docs/security.md); the DTO has already refused what this would not accept.
        const returnUrl = (0, return_url_1.normaliseReturnUrl)(request.returnURL);
        if (returnUrl === null)
            throw api_error_1.ApiError.badRequest(sessions_errors_1.SessionErrors.ReturnUrlNotHttps);
        // A later session without an Idempotency-Key writes one row: no transaction needed (the
        // sessions → memberships foreign key guards the insert). Everything else runs in one.
        const atomically = (work) => isExternalId && idempotencyKey === undefined ? work(this.db) : this.db.transaction(work);
        return atomically(async (sql) => {
            if (idempotencyKey !== undefined) {
                const requestText = JSON.stringify([
                    groupId,
                    request.groupKey,
                    request.userIdentifier,
                    request.returnURL,
                ]);
                const claim = await this.idempotency.claim(enterpriseId, idempotencyKey, this.cipher.requestFingerprint(requestText), sql);
                // A first answer this process's keys cannot open cannot be replayed: the answer a
                // different request gets, as when DATA_ENCRYPTION_KEY (which keys the fingerprint)
                // changed (docs/data-at-rest.md, "Data the keys cannot open").
                const replayed = claim.kind === 'replay'
                    ? (0, sealed_reads_1.openSealedJson)(this.cipher, 'idempotency_keys.response_ciphertext', claim.sealedResponse)
                    : null;
                if (replayed)
                    return replayed;
                if (claim.kind !== 'claimed') {
                    throw new api_error_1.ApiError(409, sessions_errors_1.SessionErrors.IdempotencyKeyReused);
                }
            }
            const participant = isExternalId
                ? await this.existingMember(enterpriseId, identifier, groupId, sql)
                : await this.identityForEmail(enterpriseId, identifier, groupId, sql);
            const sessionId = (0, ids_1.newSessionId)();
            await this.sessions
                .insert({
                sessionId,
                enterpriseId,
                participantId: participant.id,
                groupId,
                returnUrl,
            }, sql)
                .catch((error) => {
                // The group (and with it the membership) was deleted since it was looked up.
                if (error.code === FOREIGN_KEY_VIOLATION) {
                    throw api_error_1.ApiError.badRequest(sessions_errors_1.SessionErrors.GroupNotFound);
                }
                throw error;
            });
            const response = {
                success: true,
                message: sessions_errors_1.SESSION_CREATED_MESSAGE,
                userIdentifier: participant.externalId,
                redirectUrl: this.links.checkinUrl(sessionId),
                sessionID: sessionId,
            };
            if (idempotencyKey !== undefined) {
                await this.idempotency.complete(enterpriseId, idempotencyKey, { sealedResponse: (0, transcript_codec_1.sealJson)(this.cipher, response), externalId: participant.externalId }, sql);
            }
            return response;
        });
    }
    /** The session as the enterprise sees it (`GET /sessions/{sessionID}`). */
    async get(enterpriseId, sessionId) {
        const session = await this.findOwned(enterpriseId, sessionId);
        return (0, session_view_1.sessionView)(session, (stored, field) => (0, transcript_codec_1.openSessionJson)(this.cipher, field, stored));
    }
    /**
     * The enterprise's session, else 400 `Session not found`: another enterprise's session and a
     * malformed id are indistinguishable from an unknown one (docs/api.md).
     */
    async findOwned(enterpriseId, sessionId) {
        const session = ids_1.SESSION_ID_PATTERN.test(sessionId)
            ? await this.sessions.findForEnterprise(enterpriseId, sessionId)
            : null;
        if (!session)
            throw api_error_1.ApiError.badRequest(sessions_errors_1.SessionErrors.NotFound);
        return session;
    }
    /** A later session: the ok_ id must be this enterprise's participant and a member of the group. */
    async existingMember(enterpriseId, externalId, groupId, sql) {
        const found = await this.participants.findWithMembership(enterpriseId, externalId, groupId, sql);
        if (!found)
            throw api_error_1.ApiError.badRequest(sessions_errors_1.SessionErrors.IdentifierInvalid);
        if (!found.isMember)
            throw api_error_1.ApiError.badRequest(sessions_errors_1.SessionErrors.NotInGroup(externalId, groupId));
        return found.participant;
    }
    /**
     * A first session: a new identity (and `user.created`), or a new membership for an email this
     * enterprise already knows. An email already in the group is refused with its external ID.
     */
    async identityForEmail(enterpriseId, email, groupId, sql) {
        const normalised = (0, pii_cipher_1.normaliseEmail)(email);
        const emailHash = this.cipher.emailLookupHash(normalised);
        const created = await this.participants.insertIdentity({
            enterpriseId,
            externalId: (0, ids_1.newExternalId)(),
            emailCiphertext: this.cipher.encrypt(normalised),
            emailHash,
        }, sql);
        const participant = created ?? (await this.participants.findByEmailHash(enterpriseId, emailHash, sql));
        if (!participant)
            throw new Error('participant vanished between insert and select');
        if (!(await this.memberships.insert(participant.id, groupId, sql))) {
            throw api_error_1.ApiError.badRequest(sessions_errors_1.SessionErrors.AlreadyExists(participant.externalId));
        }
        if (created) {
            const payload = {
                groupID: groupId,
                userIdentifier: participant.externalId,
            };
            await this.events.insert({
                enterpriseId,
                groupId,
                type: events_1.EventTypes.UserCreated,
                payload,
                pii: { email: normalised },
            }, sql);
        }
        return participant;
    }
};
exports.SessionsService = SessionsService;
exports.SessionsService = SessionsService = __decorate([
    (0, common_1.Injectable)(),
    __metadata("design:paramtypes", [database_1.Database,
        groups_repository_1.GroupsRepository,
        participants_repository_1.ParticipantsRepository,
        memberships_repository_1.MembershipsRepository,
        sessions_repository_1.SessionsRepository,
        events_repository_1.EventsRepository,
        idempotency_repository_1.IdempotencyRepository,
        pii_cipher_1.PiiCipher,
        participant_links_1.ParticipantLinks])
], SessionsService);
//# sourceMappingURL=sessions.service.js.map