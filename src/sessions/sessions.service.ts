import { Injectable } from '@nestjs/common';
import { normaliseEmail, PiiCipher } from '../common/crypto/pii-cipher';
import { openSealedJson } from '../common/crypto/sealed-reads';
import { sameSecret } from '../common/crypto/secrets';
import { ApiError } from '../common/errors/api-error';
import {
  EXTERNAL_ID_PATTERN,
  newExternalId,
  newSessionId,
  SESSION_ID_PATTERN,
} from '../common/ids';
import { plainEmailAddress } from '../common/validation/email-address';
import { Database, Sql } from '../database/database';
import { EventTypes, UserCreatedPayload } from '../webhooks/events/events';
import { EventsRepository } from '../webhooks/events/events.repository';
import { GroupAccess } from '../groups/group-access';
import { MembershipsRepository } from '../participants/memberships.repository';
import { ParticipantRecord, ParticipantsRepository } from '../participants/participants.repository';
import { ParticipantLinks } from '../participant-links/participant-links';
import { CreateSessionDto, SessionCreatedDto } from './dto/create-session.dto';
import type { SessionDto } from './dto/session.dto';
import { IdempotencyRepository } from './idempotency.repository';
import { normaliseReturnUrl } from './return-url';
import { SessionRecord, sessionView } from './session-view';
import { SESSION_CREATED_MESSAGE, SessionErrors } from './sessions.errors';
import { SessionsRepository } from './sessions.repository';
import { openSessionJson, sealJson } from './transcript-codec';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

const FOREIGN_KEY_VIOLATION = '23503';

/**
 * Session creation (docs/checkin-flow.md): checks in the spec's order, then one transaction that finds or
 * creates the participant's identity and membership, writes the session and, for a new identity,
 * the `user.created` event.
 */
@Injectable()
export class SessionsService {
  constructor(
    private readonly db: Database,
    private readonly groups: GroupAccess,
    private readonly participants: ParticipantsRepository,
    private readonly memberships: MembershipsRepository,
    private readonly sessions: SessionsRepository,
    private readonly events: EventsRepository,
    private readonly idempotency: IdempotencyRepository,
    private readonly cipher: PiiCipher,
    private readonly links: ParticipantLinks,
  ) {}

  async create(
    enterpriseId: string,
    request: CreateSessionDto,
    idempotencyKey?: string,
  ): Promise<SessionCreatedDto> {
    if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
      throw ApiError.badRequest(SessionErrors.IdempotencyKeyInvalid);
    }
    const groupId = request.groupID;
    const group =
      Number.isSafeInteger(groupId) && groupId > 0
        ? await this.groups.findForEnterprise(enterpriseId, groupId)
        : null;
    if (!group) throw ApiError.badRequest(SessionErrors.GroupNotFound);
    if (!sameSecret(request.groupKey, group.key)) {
      throw ApiError.badRequest(SessionErrors.InvalidGroupKey);
    }
    // An ok_ id, or one plain email address (docs/security.md): what is stored is the parsed address.
    const trimmed = request.userIdentifier.trim();
    const isExternalId = EXTERNAL_ID_PATTERN.test(trimmed);
    const identifier = isExternalId ? trimmed : plainEmailAddress(trimmed);
    if (identifier === null) throw ApiError.badRequest(SessionErrors.IdentifierInvalid);
    // Stored normalised (docs/security.md); the DTO has already refused what this would not accept.
    const returnUrl = normaliseReturnUrl(request.returnURL);
    if (returnUrl === null) throw ApiError.badRequest(SessionErrors.ReturnUrlNotHttps);

    // A later session without an Idempotency-Key writes one row: no transaction needed (the
    // sessions → memberships foreign key guards the insert). Everything else runs in one.
    const atomically = <T>(work: (sql: Sql) => Promise<T>): Promise<T> =>
      isExternalId && idempotencyKey === undefined ? work(this.db) : this.db.transaction(work);
    return atomically(async (sql) => {
      if (idempotencyKey !== undefined) {
        const requestText = JSON.stringify([
          groupId,
          request.groupKey,
          request.userIdentifier,
          request.returnURL,
        ]);
        const claim = await this.idempotency.claim(
          enterpriseId,
          idempotencyKey,
          this.cipher.requestFingerprint(requestText),
          sql,
        );
        // A first answer this process's keys cannot open cannot be replayed: the answer a
        // different request gets, as when DATA_ENCRYPTION_KEY (which keys the fingerprint)
        // changed (docs/data-at-rest.md, "Data the keys cannot open").
        const replayed =
          claim.kind === 'replay'
            ? openSealedJson<SessionCreatedDto>(
                this.cipher,
                'idempotency_keys.response_ciphertext',
                claim.sealedResponse,
              )
            : null;
        if (replayed) return replayed;
        if (claim.kind !== 'claimed') {
          throw new ApiError(409, SessionErrors.IdempotencyKeyReused);
        }
      }
      const participant = isExternalId
        ? await this.existingMember(enterpriseId, identifier, groupId, sql)
        : await this.identityForEmail(enterpriseId, identifier, groupId, sql);
      const sessionId = newSessionId();
      await this.sessions
        .insert(
          {
            sessionId,
            enterpriseId,
            participantId: participant.id,
            groupId,
            returnUrl,
          },
          sql,
        )
        .catch((error: unknown) => {
          // The group (and with it the membership) was deleted since it was looked up.
          if ((error as { code?: string }).code === FOREIGN_KEY_VIOLATION) {
            throw ApiError.badRequest(SessionErrors.GroupNotFound);
          }
          throw error;
        });
      const response: SessionCreatedDto = {
        success: true,
        message: SESSION_CREATED_MESSAGE,
        userIdentifier: participant.externalId,
        redirectUrl: this.links.checkinUrl(sessionId),
        sessionID: sessionId,
      };
      if (idempotencyKey !== undefined) {
        await this.idempotency.complete(
          enterpriseId,
          idempotencyKey,
          { sealedResponse: sealJson(this.cipher, response), externalId: participant.externalId },
          sql,
        );
      }
      return response;
    });
  }

  /** The session as the enterprise sees it (`GET /sessions/{sessionID}`). */
  async get(enterpriseId: string, sessionId: string): Promise<SessionDto> {
    const session = await this.findOwned(enterpriseId, sessionId);
    return sessionView(session, (stored, field) => openSessionJson(this.cipher, field, stored));
  }

  /**
   * The enterprise's session, else 400 `Session not found`: another enterprise's session and a
   * malformed id are indistinguishable from an unknown one (docs/api.md).
   */
  async findOwned(enterpriseId: string, sessionId: string): Promise<SessionRecord> {
    const session = SESSION_ID_PATTERN.test(sessionId)
      ? await this.sessions.findForEnterprise(enterpriseId, sessionId)
      : null;
    if (!session) throw ApiError.badRequest(SessionErrors.NotFound);
    return session;
  }

  /** A later session: the ok_ id must be this enterprise's participant and a member of the group. */
  private async existingMember(
    enterpriseId: string,
    externalId: string,
    groupId: number,
    sql: Sql,
  ): Promise<ParticipantRecord> {
    const found = await this.participants.findWithMembership(
      enterpriseId,
      externalId,
      groupId,
      sql,
    );
    if (!found) throw ApiError.badRequest(SessionErrors.IdentifierInvalid);
    if (!found.isMember) throw ApiError.badRequest(SessionErrors.NotInGroup(externalId, groupId));
    return found.participant;
  }

  /**
   * A first session: a new identity (and `user.created`), or a new membership for an email this
   * enterprise already knows. An email already in the group is refused with its external ID.
   */
  private async identityForEmail(
    enterpriseId: string,
    email: string,
    groupId: number,
    sql: Sql,
  ): Promise<ParticipantRecord> {
    const normalised = normaliseEmail(email);
    const emailHash = this.cipher.emailLookupHash(normalised);
    const created = await this.participants.insertIdentity(
      {
        enterpriseId,
        externalId: newExternalId(),
        emailCiphertext: this.cipher.encrypt(normalised),
        emailHash,
      },
      sql,
    );
    const participant =
      created ?? (await this.participants.findByEmailHash(enterpriseId, emailHash, sql));
    if (!participant) throw new Error('participant vanished between insert and select');
    if (!(await this.memberships.insert(participant.id, groupId, sql))) {
      throw ApiError.badRequest(SessionErrors.AlreadyExists(participant.externalId));
    }
    if (created) {
      const payload: UserCreatedPayload = {
        groupID: groupId,
        userIdentifier: participant.externalId,
      };
      await this.events.insert(
        {
          enterpriseId,
          groupId,
          type: EventTypes.UserCreated,
          payload,
          pii: { email: normalised },
        },
        sql,
      );
    }
    return participant;
  }
}
