import { Command, CommandRunner, Option } from 'nest-commander';
import { Reencryption } from '../data-at-rest/reencryption';
import { failCommand, printResult } from './cli-output';

@Command({
  name: 'data:reencrypt',
  description:
    'Re-encrypt every stored ciphertext (emails, transcripts, event data, webhook secrets, ' +
    'captured sandbox mails) under the newest data key, so older keys can be removed from ' +
    'DATA_ENCRYPTION_KEYS',
})
export class ReencryptCommand extends CommandRunner {
  constructor(private readonly reencryption: Reencryption) {
    super();
  }

  @Option({ flags: '--json', description: 'print one JSON object on stdout' })
  parseJson(): boolean {
    return true;
  }

  async run(_: string[], options: { json?: boolean }): Promise<void> {
    try {
      const report = await this.reencryption.run();
      const lines = [`Re-encrypted under data key ${report.keyId}:`];
      for (const [column, count] of Object.entries(report.reencrypted)) {
        const unreadable = report.unreadable[column];
        const held = Object.entries(report.keyIds[column])
          .map(([keyId, n]) => `${keyId} ${n}`)
          .join(', ');
        lines.push(
          `  ${column}: ${count} rewritten${unreadable ? `, ${unreadable} the configured keys cannot open` : ''}; now ${held || 'none'}`,
        );
      }
      printResult(!!options.json, report, lines);
    } catch (error) {
      failCommand((error as Error).message);
    }
  }
}

export const DATA_COMMANDS = [ReencryptCommand];
