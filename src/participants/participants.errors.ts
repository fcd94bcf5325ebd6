/** Participants' client-facing messages (spec strings, byte for byte). */
import { missingPathParameter } from '../common/errors/common.errors';

export const ParticipantErrors = {
  ExternalIdMissing: missingPathParameter('externalID'),
  NotFound: 'Participant not found',
} as const;
