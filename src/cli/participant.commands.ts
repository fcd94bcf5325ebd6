import { Injectable } from '@nestjs/common';
import { Command, CommandRunner, Option } from 'nest-commander';
import { ErasureService } from '../erasure/erasure.service';
import { ParticipantErrors } from '../participants/participants.errors';
import { failCommand, printResult } from './cli-output';

/** Erases a participant on the operator's authority (docs/privacy.md); external IDs are unique. */
@Injectable()
@Command({
  name: 'participants:erase',
  arguments: '<externalID>',
  description: "Erase a participant: identity, sessions, results, mails, and their metrics' share",
})
export class EraseParticipantCommand extends CommandRunner {
  constructor(private readonly erasure: ErasureService) {
    super();
  }

  @Option({ flags: '--json', description: 'print one JSON object on stdout' })
  parseJson(): boolean {
    return true;
  }

  async run([externalId]: string[], options: { json?: boolean }): Promise<void> {
    try {
      if (!(await this.erasure.erase(externalId, { by: 'operator' }))) {
        failCommand(ParticipantErrors.NotFound);
        return;
      }
      printResult(!!options.json, { externalID: externalId, erased: true }, [
        `Erased ${externalId}. Each of their groups received a user.deleted event.`,
      ]);
    } catch (error) {
      failCommand((error as Error).message);
    }
  }
}

export const PARTICIPANT_COMMANDS = [EraseParticipantCommand];
