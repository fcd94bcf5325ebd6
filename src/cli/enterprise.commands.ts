import { Injectable } from '@nestjs/common';
import { Command, CommandRunner, Option } from 'nest-commander';
import { METRICS_BUDGET, PRIVACY_FLOOR } from '../common/privacy-model';
import { ApiKeyRecord } from '../enterprises/enterprises.repository';
import { EnterprisesService, SANDBOX_NOTE } from '../enterprises/enterprises.service';
import { EnterpriseErrors } from '../enterprises/enterprises.errors';
import { WindowReleaser } from '../metrics/windows/window-releaser';
import { ProgrammesService } from '../enterprises/programme/programmes.service';
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
    'Set the privacy settings of group metrics: how many participants a release needs (scores, ' +
    'words), how many speakers a word needs, the yearly budget per participant, the release ' +
    'window and the widest margin an answer may have (docs/metrics.md)',
})
export class SetPrivacyFloorCommand extends JsonCommand {
  constructor(
    enterprises: EnterprisesService,
    private readonly releaser: WindowReleaser,
  ) {
    super(enterprises);
  }

  @Option({
    flags: '--scores <n>',
    description: `fewest participants in a release of group scores (${PRIVACY_FLOOR.min}–${PRIVACY_FLOOR.max}, default ${PRIVACY_FLOOR.defaultScores})`,
  })
  parseScores(value: string): string {
    return value;
  }

  @Option({
    flags: '--words <n>',
    description: `fewest participants in a release of group words (${PRIVACY_FLOOR.min}–${PRIVACY_FLOOR.max}, default ${PRIVACY_FLOOR.defaultWords})`,
  })
  parseWords(value: string): string {
    return value;
  }

  @Option({
    flags: '--speakers <n>',
    description: `fewest participants of a release who said a word for it to be kept (${PRIVACY_FLOOR.min}–${PRIVACY_FLOOR.max}, default ${PRIVACY_FLOOR.defaultSpeakers}; omitted: unchanged)`,
  })
  parseSpeakers(value: string): string {
    return value;
  }

  @Option({
    flags: '--budget <e>',
    description: `ε_year, the yearly budget of each participant over all group releases (${METRICS_BUDGET.min}–${METRICS_BUDGET.max}, at most two decimals, default ${METRICS_BUDGET.defaultEpsilonYear}; omitted: unchanged)`,
  })
  parseBudget(value: string): string {
    return value;
  }

  @Option({
    flags: '--window <kind>',
    description: `the release window, month or week (ISO), default ${METRICS_BUDGET.defaultWindow}; omitted: unchanged`,
  })
  parseWindow(value: string): string {
    return value;
  }

  @Option({
    flags: '--max-margin <points>',
    description: `withhold answers whose 95 % margin of avgMhci is wider (${METRICS_BUDGET.min}–${METRICS_BUDGET.max}, default ${METRICS_BUDGET.defaultMaxMargin}; omitted: unchanged)`,
  })
  parseMaxMargin(value: string): string {
    return value;
  }

  async run(
    [enterpriseId]: string[],
    options: JsonOption & {
      scores?: string;
      words?: string;
      speakers?: string;
      budget?: string;
      window?: string;
      maxMargin?: string;
    },
  ): Promise<void> {
    await this.guarded(async () => {
      const { json, ...settings } = options;
      // A bad value is refused before anything changes.
      this.enterprises.parsePrivacyFloor(settings);
      if (
        (settings.budget !== undefined || settings.window !== undefined) &&
        (await this.enterprises.exists(enterpriseId))
      ) {
        // The window of today keeps the settings it began with: a change applies from the next.
        await this.releaser.holdCurrentWindow(enterpriseId, new Date().toISOString().slice(0, 10));
      }
      const floor = await this.enterprises.setPrivacyFloor(enterpriseId, settings);
      printResult(!!json, floor, [
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
}

@Command({
  name: 'enterprises:set-programme',
  arguments: '<enterpriseId>',
  description:
    "Declare an enterprise's programme: where it runs check-ins, why, on what legal basis, and " +
    'whom to contact; eu + wellbeing turns biometric inference off (docs/compliance.md)',
})
export class SetProgrammeCommand extends JsonCommand {
  constructor(
    enterprises: EnterprisesService,
    private readonly programmes: ProgrammesService,
  ) {
    super(enterprises);
  }

  @Option({ flags: '--jurisdiction <where>', description: 'eu or other' })
  parseJurisdiction(value: string): string {
    return value;
  }

  @Option({ flags: '--purpose <why>', description: 'wellbeing, medical or safety' })
  parsePurpose(value: string): string {
    return value;
  }

  @Option({
    flags: '--basis <text>',
    description: 'the legal basis, as the enterprise states it (one line, up to 500 characters)',
  })
  parseBasis(value: string): string {
    return value;
  }

  @Option({ flags: '--contact <email>', description: 'where participants write about it' })
  parseContact(value: string): string {
    return value;
  }

  @Option({
    flags: '--by <operator>',
    description: 'who declares, for the ledger (default: the account this runs as)',
  })
  parseBy(value: string): string {
    return value;
  }

  async run(
    [enterpriseId]: string[],
    options: JsonOption & {
      jurisdiction?: string;
      purpose?: string;
      basis?: string;
      contact?: string;
      by?: string;
    },
  ): Promise<void> {
    await this.guarded(async () => {
      const { json, ...declaration } = options;
      const declared = await this.programmes.declare(enterpriseId, declaration);
      printResult(!!json, { ...declared, declaredAt: declared.declaredAt.toISOString() }, [
        `Programme of ${declared.enterpriseId}: ${declared.jurisdiction}, ${declared.purpose}; ` +
          `basis: ${declared.basis}; contact: ${declared.contact}. Biometric inference is ` +
          `${declared.biometricInference} (voice and face${declared.biometricInference === 'off' ? ' are not analysed' : ' may be analysed'}). ` +
          `Recorded in the ledger as declared by ${declared.declaredBy}.`,
      ]);
    });
  }
}

@Command({
  name: 'enterprises:programme',
  arguments: '<enterpriseId>',
  description: "Show an enterprise's programme declaration and its ledger of changes",
})
export class ShowProgrammeCommand extends JsonCommand {
  constructor(
    enterprises: EnterprisesService,
    private readonly programmes: ProgrammesService,
  ) {
    super(enterprises);
  }

  async run([enterpriseId]: string[], options: JsonOption): Promise<void> {
    await this.guarded(async () => {
      if (!(await this.enterprises.exists(enterpriseId))) {
        throw new Error(EnterpriseErrors.NotFound(enterpriseId));
      }
      const programme = await this.programmes.find(enterpriseId);
      const ledger = (await this.programmes.ledger(enterpriseId)).map((entry) => ({
        ...entry,
        declaredAt: entry.declaredAt.toISOString(),
      }));
      printResult(
        !!options.json,
        {
          enterpriseId,
          programme: programme && { ...programme, declaredAt: programme.declaredAt.toISOString() },
          ledger,
        },
        [
          programme
            ? `Programme: ${programme.jurisdiction}, ${programme.purpose}; basis: ${programme.basis}; contact: ${programme.contact}`
            : 'No programme declared: check-ins infer from voice and face as before declarations existed.',
          ...ledger.map(
            (entry) =>
              `${entry.declaredAt}  ${entry.declaredBy}: ${entry.previous ? `${entry.previous.jurisdiction}/${entry.previous.purpose}` : 'none'} -> ${entry.declaration.jurisdiction}/${entry.declaration.purpose}`,
          ),
        ],
      );
    });
  }
}

export const ENTERPRISE_COMMANDS = [
  CreateEnterpriseCommand,
  CreateApiKeyCommand,
  ListApiKeysCommand,
  RevokeApiKeyCommand,
  SetPrivacyFloorCommand,
  SetProgrammeCommand,
  ShowProgrammeCommand,
];
