import { Inject, Injectable } from '@nestjs/common';
import { Command, CommandRunner, Option } from 'nest-commander';
import { IngestionService } from '../ingestion/ingestion.service';
import { syntheticResult } from '../ingestion/synthetic-result';
import { PRIVACY_FLOOR } from '../common/privacy-model';
import { EnterprisesService, SANDBOX_NOTE } from '../enterprises/enterprises.service';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { GroupsService } from '../groups/groups.service';
import { SessionsService } from '../sessions/sessions.service';
import { failCommand, printResult } from './cli-output';

const DAY_MS = 86_400_000;

/** A synthetic result is made up: production records only the analysis engine's (docs/security.md). */
export const SIMULATE_REFUSED_IN_PRODUCTION =
  'sessions:simulate-result is refused in production: only the analysis engine records results';

@Command({
  name: 'sessions:simulate-result',
  arguments: '<sessionID>',
  description:
    'Post a synthetic (clearly labelled) result for a session through the real ingestion path ' +
    '(development and test only: refused in production)',
})
export class SimulateResultCommand extends CommandRunner {
  constructor(
    private readonly ingestion: IngestionService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  @Option({ flags: '--json', description: 'print one JSON object on stdout' })
  parseJson(): boolean {
    return true;
  }

  async run([sessionId]: string[], options: { json?: boolean }): Promise<void> {
    if (this.config.isProduction) return failCommand(SIMULATE_REFUSED_IN_PRODUCTION);
    try {
      const result = syntheticResult();
      const outcome = await this.ingestion.ingest(sessionId, result, { synthetic: true });
      printResult(
        !!options.json,
        { sessionID: sessionId, outcome, synthetic: true, mhci: result.mhci },
        [
          outcome === 'completed'
            ? `Recorded a SYNTHETIC result for ${sessionId} (mhci ${result.mhci}).`
            : `${sessionId} already has a result; nothing changed.`,
        ],
      );
    } catch (error) {
      failCommand((error as Error).message);
    }
  }
}

/**
 * People per demo group: enough that a group's `mhci` and `wordcloud` reach the default privacy
 * floor (docs/metrics.md), so a newcomer sees answers rather than `null`.
 */
const DEMO_PARTICIPANTS_PER_GROUP = Math.max(
  PRIVACY_FLOOR.defaultScores,
  PRIVACY_FLOOR.defaultWords,
);

/**
 * Said by demo:seed: why it runs in production too (unlike `sessions:simulate-result`): what it
 * creates is a sandbox enterprise of its own, whose made-up data stays apart from every real
 * tenant and from which no mail reaches anyone.
 */
export const DEMO_SEED_SANDBOX_NOTICE =
  'This demo enterprise is a sandbox: its sessions are synthetic and its mails are captured, ' +
  'never sent, so demo:seed is allowed in production too.';

/**
 * Demo data: a sandbox enterprise (docs/integrating.md) with two groups, participants and completed
 * (synthetic) sessions.
 */
@Injectable()
@Command({
  name: 'demo:seed',
  description:
    'Create a demo sandbox enterprise with groups, participants and completed synthetic ' +
    'sessions (its mails are captured, never sent; allowed in production)',
})
export class DemoSeedCommand extends CommandRunner {
  constructor(
    private readonly enterprises: EnterprisesService,
    private readonly groups: GroupsService,
    private readonly sessions: SessionsService,
    private readonly ingestion: IngestionService,
  ) {
    super();
  }

  @Option({ flags: '--json', description: 'print one JSON object on stdout' })
  parseJson(): boolean {
    return true;
  }

  @Option({ flags: '-n, --name <name>', description: 'enterprise name (default "Demo Co")' })
  parseName(value: string): string {
    return value;
  }

  async run(_: string[], options: { json?: boolean; name?: string }): Promise<void> {
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
            await this.ingestion.ingest(created.sessionID, syntheticResult(completedAt), {
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
      printResult(!!options.json, { ...enterprise, groups: summary }, [
        `Demo enterprise: ${enterprise.name} (${enterprise.enterpriseId})`,
        `API key (shown once): ${enterprise.apiKey}`,
        ...summary.map(
          (group) =>
            `Group ${group.groupID} "${group.groupName}": ${group.sessions} synthetic sessions`,
        ),
        DEMO_SEED_SANDBOX_NOTICE,
        SANDBOX_NOTE,
      ]);
    } catch (error) {
      failCommand((error as Error).message);
    }
  }
}

export const DEMO_COMMANDS = [SimulateResultCommand, DemoSeedCommand];
