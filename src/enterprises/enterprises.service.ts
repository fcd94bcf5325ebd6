import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { ApiKeyRecord, EnterprisesRepository } from './enterprises.repository';
import { ApiKeysService } from './api-keys.service';
import { EnterpriseErrors } from './enterprises.errors';

export interface CreatedEnterprise {
  enterpriseId: string;
  name: string;
  apiKey: string;
}

/** Operator actions on tenants; used by the CLI and the development bootstrap. */
@Injectable()
export class EnterprisesService {
  constructor(
    private readonly db: Database,
    private readonly repository: EnterprisesRepository,
    private readonly apiKeys: ApiKeysService,
  ) {}

  /** Creates an enterprise and its first API key in one transaction. */
  async create(rawName: string): Promise<CreatedEnterprise> {
    const name = rawName.trim();
    if (!name) throw new Error(EnterpriseErrors.NameRequired);
    return this.db.transaction(async (sql) => {
      const enterpriseId = await this.repository.insertEnterprise(name, sql);
      const { apiKey } = await this.apiKeys.issue(enterpriseId, sql);
      return { enterpriseId, name, apiKey };
    });
  }

  /**
   * Creates an enterprise only when none exists (development bootstrap). An advisory lock makes
   * two processes starting together create one, not two.
   */
  async createIfNoneExist(name: string): Promise<CreatedEnterprise | null> {
    return this.db.transaction(async (sql) => {
      await this.repository.lockForBootstrap(sql);
      if ((await this.repository.count(sql)) > 0) return null;
      const enterpriseId = await this.repository.insertEnterprise(name, sql);
      const { apiKey } = await this.apiKeys.issue(enterpriseId, sql);
      return { enterpriseId, name, apiKey };
    });
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

  private async assertExists(enterpriseId: string): Promise<void> {
    const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(
      enterpriseId,
    );
    if (!isUuid || !(await this.repository.exists(enterpriseId))) {
      throw new Error(EnterpriseErrors.NotFound(enterpriseId));
    }
  }
}
