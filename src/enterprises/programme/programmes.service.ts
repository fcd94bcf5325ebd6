import { Injectable } from '@nestjs/common';
import { userInfo } from 'node:os';
import { ENTERPRISE_ID_PATTERN } from '../../common/ids';
import { EnterpriseErrors } from '../enterprises.errors';
import {
  biometricInference,
  parseDeclaredBy,
  parseProgramme,
  type Programme,
  type ProgrammeDeclaration,
  type ProgrammeOptions,
} from './programme';
import { LedgerEntry, ProgrammesRepository } from './programmes.repository';

/** The operating-system account the CLI runs as, when `--by` is not given. */
function account(): string {
  try {
    return userInfo().username;
  } catch {
    return 'unknown';
  }
}

/** Declared programmes (docs/compliance.md): the operator's CLI, and what others read of them. */
@Injectable()
export class ProgrammesService {
  constructor(private readonly repository: ProgrammesRepository) {}

  /**
   * Declares an enterprise's programme (`enterprises:set-programme`), operator only: every value
   * is checked first (a one-line refusal, nothing changed), then the declaration and its ledger
   * row are written together.
   */
  async declare(
    enterpriseId: string,
    options: ProgrammeOptions & { by?: string },
  ): Promise<ProgrammeDeclaration & { enterpriseId: string; biometricInference: 'on' | 'off' }> {
    const programme = parseProgramme(options);
    const by = parseDeclaredBy(options.by, account());
    const declared = ENTERPRISE_ID_PATTERN.test(enterpriseId)
      ? await this.repository.declare(enterpriseId, programme, by)
      : null;
    if (!declared) throw new Error(EnterpriseErrors.NotFound(enterpriseId));
    return { enterpriseId, ...declared, biometricInference: biometricInference(declared) };
  }

  /** The enterprise's declaration, or null (none declared, or no such enterprise). */
  async find(enterpriseId: string): Promise<(Programme & { declaredAt: Date }) | null> {
    return (await this.repository.find(enterpriseId)) ?? null;
  }

  ledger(enterpriseId: string): Promise<LedgerEntry[]> {
    return this.repository.ledger(enterpriseId);
  }

  undeclaredCount(): Promise<number> {
    return this.repository.undeclaredCount();
  }
}
