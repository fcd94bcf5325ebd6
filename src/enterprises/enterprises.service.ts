import { Injectable } from '@nestjs/common';
import { ENTERPRISE_ID_PATTERN } from '../common/ids';
import {
  METRICS_BUDGET,
  parseBudgetNumber,
  PRIVACY_FLOOR,
  type PrivacyFloor,
} from '../common/privacy-model';
import { Database, Sql } from '../database/database';
import { ApiKeyRecord, EnterprisesRepository } from './enterprises.repository';
import { ApiKeysService } from './api-keys.service';
import { EnterpriseErrors } from './enterprises.errors';
import type { EnterpriseDto } from './dto/enterprise.dto';
import { biometricInference } from './programme/programme';
import { ProgrammesService } from './programme/programmes.service';

/** A floor option as typed: absent (null, keep), or a whole number in the floor's range. */
function floorValue(option: string, value: string | undefined): number | null {
  if (value === undefined) return null;
  const n = /^\d{1,3}$/.test(value) ? Number(value) : NaN;
  if (!(n >= PRIVACY_FLOOR.min && n <= PRIVACY_FLOOR.max)) {
    throw new Error(EnterpriseErrors.FloorInvalid(option, value));
  }
  return n;
}

/** `--budget` or `--max-margin` as typed: absent (null, keep), or 1–100 with two decimals at most. */
function budgetOption(option: string, value: string | undefined): number | null {
  if (value === undefined) return null;
  const n = parseBudgetNumber(value, METRICS_BUDGET.min, METRICS_BUDGET.max);
  if (n === null) throw new Error(EnterpriseErrors.BudgetInvalid(option, value));
  return n;
}

/** `--window` as typed: absent (null, keep), `month` or `week`. */
function windowOption(value: string | undefined): string | null {
  if (value === undefined) return null;
  if (value !== 'month' && value !== 'week') throw new Error(EnterpriseErrors.WindowInvalid(value));
  return value;
}

/** enterprises:set-privacy-floor's options, as typed. */
export interface PrivacyFloorOptions {
  scores?: string;
  words?: string;
  speakers?: string;
  budget?: string;
  window?: string;
  maxMargin?: string;
}

export interface CreatedEnterprise {
  enterpriseId: string;
  name: string;
  apiKey: string;
  /** A sandbox enterprise (docs/integrating.md): sessions completed on request, mails captured. */
  sandbox: boolean;
}

/** What an operator is told about a sandbox enterprise they created (CLI, development bootstrap). */
export const SANDBOX_NOTE =
  'Sandbox: complete its sessions with POST /sandbox/sessions/{sessionID}/complete; ' +
  'its mails are captured at GET /sandbox/emails, never sent.';

export interface EnterpriseOptions {
  sandbox?: boolean;
}

/** Operator actions on tenants; used by the CLI and the development bootstrap. */
@Injectable()
export class EnterprisesService {
  constructor(
    private readonly db: Database,
    private readonly repository: EnterprisesRepository,
    private readonly apiKeys: ApiKeysService,
    private readonly programmes: ProgrammesService,
  ) {}

  /** `GET /enterprise`: the caller's declared programme and group-metrics parameters. */
  async settings(enterpriseId: string): Promise<EnterpriseDto> {
    const settings = await this.repository.settingsOf(enterpriseId);
    // The API key guard found this enterprise; it can only be gone if deleted since.
    if (!settings) throw new Error(EnterpriseErrors.NotFound(enterpriseId));
    const programme = await this.programmes.find(enterpriseId);
    return {
      name: settings.name,
      sandbox: settings.sandbox,
      programme: programme && {
        jurisdiction: programme.jurisdiction,
        purpose: programme.purpose,
        basis: programme.basis,
        contact: programme.contact,
        declaredAt: programme.declaredAt.toISOString(),
        biometricInference: biometricInference(programme),
      },
      metrics: {
        epsilonYear: settings.epsilonYear,
        window: settings.metricsWindow as 'month' | 'week',
        maxMargin: settings.maxMargin,
        minParticipantsScores: settings.minCohortScores,
        minParticipantsWords: settings.minCohortWords,
        minWordSpeakers: settings.minWordSpeakers,
      },
    };
  }

  /**
   * Creates an enterprise and its first API key in one transaction; a sandbox with
   * `{ sandbox: true }` (fixed for the enterprise's life).
   */
  async create(rawName: string, options: EnterpriseOptions = {}): Promise<CreatedEnterprise> {
    const name = rawName.trim();
    if (!name) throw new Error(EnterpriseErrors.NameRequired);
    return this.db.transaction((sql) => this.insertWithKey(name, options, sql));
  }

  /**
   * Creates an enterprise only when none exists (development bootstrap). An advisory lock makes
   * two processes starting together create one, not two.
   */
  async createIfNoneExist(
    name: string,
    options: EnterpriseOptions = {},
  ): Promise<CreatedEnterprise | null> {
    return this.db.transaction(async (sql) => {
      await this.repository.lockForBootstrap(sql);
      if ((await this.repository.count(sql)) > 0) return null;
      return this.insertWithKey(name, options, sql);
    });
  }

  /** The demo bootstrap's sandbox enterprise (by its name), or null. */
  sandboxNamed(name: string): Promise<string | null> {
    return this.repository.sandboxNamed(name);
  }

  async createApiKey(enterpriseId: string): Promise<{ apiKey: string; record: ApiKeyRecord }> {
    await this.assertExists(enterpriseId);
    return this.apiKeys.issue(enterpriseId);
  }

  async listApiKeys(enterpriseId: string): Promise<ApiKeyRecord[]> {
    await this.assertExists(enterpriseId);
    return this.apiKeys.list(enterpriseId);
  }

  async revokeApiKey(prefix: string): Promise<ApiKeyRecord> {
    const record = await this.apiKeys.revoke(prefix);
    if (!record) throw new Error(EnterpriseErrors.KeyPrefixNotFound(prefix));
    return record;
  }

  /**
   * Sets an enterprise's privacy floor and ε (docs/metrics.md), operator only: `scores`, `words`
   * and/or `speakers`, each a whole number 1–100, and `epsilon`, 0.1–10 in hundredths, as typed on
   * the command line; an omitted one keeps its value. Cells released before keep what they were
   * released under.
   */
  /**
   * The privacy settings as the operator typed them, checked (a one-line refusal for a bad
   * value); null for each one not given.
   */
  parsePrivacyFloor(options: PrivacyFloorOptions): {
    [K in keyof PrivacyFloor]: PrivacyFloor[K] | null;
  } {
    if (Object.values(options).every((value) => value === undefined)) {
      throw new Error(EnterpriseErrors.FloorMissing);
    }
    return {
      minCohortScores: floorValue('--scores', options.scores),
      minCohortWords: floorValue('--words', options.words),
      minWordSpeakers: floorValue('--speakers', options.speakers),
      epsilonYear: budgetOption('--budget', options.budget),
      metricsWindow: windowOption(options.window),
      maxMargin: budgetOption('--max-margin', options.maxMargin),
    };
  }

  async setPrivacyFloor(
    enterpriseId: string,
    options: PrivacyFloorOptions,
  ): Promise<{ enterpriseId: string } & PrivacyFloor> {
    const floor = this.parsePrivacyFloor(options);
    await this.assertExists(enterpriseId);
    const updated = await this.repository.updatePrivacyFloor(enterpriseId, floor);
    if (!updated) throw new Error(EnterpriseErrors.NotFound(enterpriseId));
    return { enterpriseId, ...updated };
  }

  private async insertWithKey(
    name: string,
    options: EnterpriseOptions,
    sql: Sql,
  ): Promise<CreatedEnterprise> {
    const sandbox = options.sandbox ?? false;
    const enterpriseId = await this.repository.insertEnterprise({ name, sandbox }, sql);
    const { apiKey } = await this.apiKeys.issue(enterpriseId, sql);
    return { enterpriseId, name, apiKey, sandbox };
  }

  /** Whether an enterprise with this id exists (any string: a malformed id is none). */
  async exists(enterpriseId: string): Promise<boolean> {
    const isUuid = ENTERPRISE_ID_PATTERN.test(enterpriseId);
    return isUuid && (await this.repository.exists(enterpriseId));
  }

  private async assertExists(enterpriseId: string): Promise<void> {
    if (!(await this.exists(enterpriseId))) {
      throw new Error(EnterpriseErrors.NotFound(enterpriseId));
    }
  }
}
