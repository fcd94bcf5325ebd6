import type { ConsentChange, ConsentVia } from './consent-record.entity';

/** A ledger row as the enterprise (GET /participants/{externalID}/consents) and pages read it. */
export interface ConsentRecord {
  groupID: number | null;
  sessionID: string | null;
  change: Exclude<ConsentChange, 'erasure'>;
  from: number | boolean;
  to: number | boolean;
  at: Date;
  via: Exclude<ConsentVia, 'erasure'>;
}
