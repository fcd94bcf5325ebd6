import { Injectable } from '@nestjs/common';
import { Command, CommandRunner, Option } from 'nest-commander';
import { EPSILON, PRIVACY_FLOOR } from '../common/privacy-model';
import { CohortCellsRepository } from '../metrics/cohorts/cohort-cells.repository';
import { ApiKeyRecord } from '../enterprises/enterprises.repository';
import { EnterprisesService, SANDBOX_NOTE } from '../enterprises/enterprises.service';
import { failCommand, printResult } from './cli-output';

interface JsonOption {
  json?: boolean;
}

/** Decorated so its constructor's parameter types are emitted for the subclasses' injection. */
@Injectable()
abstract class JsonCommand extends CommandRunner {
  constructor(protected readonly enterprises: EnterprisesService) {
    super();
  }

  @Option({ flags: '--json', description: 'print one JSON object on stdout' })
  parseJson(): boolean {
    return true;
  }

  protected async guarded(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      failCommand((error as Error).message);
    }
  }
}

/** Commands about one enterprise's keys: `--enterprise <id>`. */
abstract class EnterpriseScopedCommand extends JsonCommand {
  @Option({ flags: '-e, --enterprise <id>', description: 'enterprise id', required: true })
  parseEnterprise(value: string): string {
    return value;
  }
}

const describeKey = (key: ApiKeyRecord) => ({
  prefix: key.prefix,
  enterpriseId: key.enterpriseId,
  createdAt: key.createdAt.toISOString(),
  lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  revokedAt: key.revokedAt?.toISOString() ?? null,
});

@Command({
  name: 'enterprises:create',
  description: 'Create an enterprise and its first API key (the key is shown once)',
})
export class CreateEnterpriseCommand extends JsonCommand {
  @Option({ flags: '-n, --name <name>', description: 'the enterprise name', required: true })
  parseName(value: string): string {
    return value;
  }

  @Option({
    flags: '--sandbox',
    description:
      'a sandbox enterprise (test mode): sessions completed on request through ' +
      'POST /sandbox/sessions/{sessionID}/complete, mails captured at GET /sandbox/emails, never sent',
  })
  parseSandbox(): boolean {
    return true;
  }

  async run(_: string[], options: JsonOption & { name: string; sandbox?: boolean }): Promise<void> {
    await this.guarded(async () => {
      const created = await this.enterprises.create(options.name ?? '', {
        sandbox: !!options.sandbox,
      });
      printResult(!!options.json, created, [
        `Enterprise: ${created.name} (${created.enterpriseId})`,
        `API key (shown once, store it now): ${created.apiKey}`,
        ...(created.sandbox ? [SANDBOX_NOTE] : []),
      ]);
    });
  }
}

@Command({ name: 'api-keys:create', description: 'Issue another API key for an enterprise' })
export class CreateApiKeyCommand extends EnterpriseScopedCommand {
  async run(_: string[], options: JsonOption & { enterprise: string }): Promise<void> {
    await this.guarded(async () => {
      const { apiKey, record } = await this.enterprises.createApiKey(options.enterprise);
      printResult(
        !!options.json,
        { enterpriseId: record.enterpriseId, prefix: record.prefix, apiKey },
        [
          `API key (shown once, store it now): ${apiKey}`,
          `Prefix (to list or revoke it): ${record.prefix}`,
        ],
      );
    });
  }
}

@Command({ name: 'api-keys:list', description: "List an enterprise's API keys (prefixes only)" })
export class ListApiKeysCommand extends EnterpriseScopedCommand {
  async run(_: string[], options: JsonOption & { enterprise: string }): Promise<void> {
    await this.guarded(async () => {
      const keys = (await this.enterprises.listApiKeys(options.enterprise)).map(describeKey);
      printResult(
        !!options.json,
        { apiKeys: keys },
        keys.length === 0
          ? ['No API keys.']
          : keys.map(
              (key) =>
                `${key.prefix}  created ${key.createdAt}  last used ${key.lastUsedAt ?? 'never'}` +
                (key.revokedAt ? `  REVOKED ${key.revokedAt}` : ''),
            ),
      );
    });
  }
}

@Command({
  name: 'api-keys:revoke',
  arguments: '<prefix>',
  description: 'Revoke the API key with this prefix (ck_ + 8 characters)',
})
export class RevokeApiKeyCommand extends JsonCommand {
  async run([prefix]: string[], options: JsonOption): Promise<void> {
    await this.guarded(async () => {
      const key = await this.enterprises.revokeApiKey(prefix);
      printResult(!!options.json, describeKey(key), [
        `Revoked ${key.prefix} (${key.revokedAt?.toISOString()}); it stops working within seconds.`,
      ]);
    });
  }
}

@Command({
  name: 'enterprises:set-privacy-floor',
  arguments: '<enterpriseId>',
  description:
    'Set the privacy floor of group metrics: how many hidden participants a sealed cell of ' +
    'scores or words blends, how many speakers a word needs, and the ε each cell is released ' +
    'at (docs/metrics.md)',
})
export class SetPrivacyFloorCommand extends JsonCommand {
  constructor(
    enterprises: EnterprisesService,
    private readonly cohorts: CohortCellsRepository,
  ) {
    super(enterprises);
  }

  @Option({
    flags: '--scores <n>',
    description: `fewest hidden participants in a cell of group scores (${PRIVACY_FLOOR.min}–${PRIVACY_FLOOR.max}, default ${PRIVACY_FLOOR.defaultScores})`,
  })
  parseScores(value: string): string {
    return value;
  }

  @Option({
    flags: '--words <n>',
    description: `fewest hidden participants in a cell of group words (${PRIVACY_FLOOR.min}–${PRIVACY_FLOOR.max}, default ${PRIVACY_FLOOR.defaultWords})`,
  })
  parseWords(value: string): string {
    return value;
  }

  @Option({
    flags: '--speakers <n>',
    description: `fewest participants of a cell who said a word for it to be kept (${PRIVACY_FLOOR.min}–${PRIVACY_FLOOR.max}, default ${PRIVACY_FLOOR.defaultSpeakers}; omitted: unchanged)`,
  })
  parseSpeakers(value: string): string {
    return value;
  }

  @Option({
    flags: '--epsilon <e>',
    description: `the privacy budget each sealed cell of scores, and each of words, is released at (${EPSILON.min / 100}–${EPSILON.max / 100}, at most two decimals, default ${EPSILON.default / 100}; omitted: unchanged)`,
  })
  parseEpsilon(value: string): string {
    return value;
  }

  async run(
    [enterpriseId]: string[],
    options: JsonOption & { scores?: string; words?: string; speakers?: string; epsilon?: string },
  ): Promise<void> {
    await this.guarded(async () => {
      const { json, ...settings } = options;
      const floor = await this.enterprises.setPrivacyFloor(enterpriseId, settings);
      // Runs already looked at are looked at again under the new settings.
      await this.cohorts.settingsChanged(floor.enterpriseId);
      printResult(!!json, floor, [
        `Privacy floor of ${floor.enterpriseId}: a cell of group scores seals with ` +
          `${floor.minCohortScores} hidden participants, a cell of words with ` +
          `${floor.minCohortWords}; a word needs at least ${floor.minWordSpeakers} speakers ` +
          `before noise; each cell is released at ε = ${floor.epsilon}.`,
      ]);
    });
  }
}

export const ENTERPRISE_COMMANDS = [
  CreateEnterpriseCommand,
  CreateApiKeyCommand,
  ListApiKeysCommand,
  RevokeApiKeyCommand,
  SetPrivacyFloorCommand,
];
