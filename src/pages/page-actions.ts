/**
 * What both participant pages (check-in, settings) do with a choice they post: read it from the
 * form, hand it to the participant's choices (privacy/participant-choices.ts), and answer a page
 * error when the form is invalid or the membership is gone.
 */
import {
  PageVia,
  ParticipantChoices,
  type Member,
  type RaiseReach,
} from '../privacy/participant-choices';
import type { PageLanguage } from './i18n/page-language';
import { PageError } from './page-error';
import { PageForm, parseEmailPreferences, parsePrivacyLevel } from './page-forms';

/** The response, with the browser cookies set that this request minted (browser-binding.ts). */
export function withCookie(response: Response, setCookie: readonly string[]): Response {
  for (const cookie of setCookie) response.headers.append('set-cookie', cookie);
  return response;
}

/**
 * The page is about this participant: their saved language now comes before the browser's (in
 * `language`, the request's), and a language this request chose is kept for them (docs/i18n.md).
 */
export async function adoptParticipantLanguage(
  choices: ParticipantChoices,
  participant: { participantId: string; language: string | null },
  language: PageLanguage,
): Promise<void> {
  const chosen = language.participantLanguage(participant.language);
  if (chosen) await choices.keepLanguage(participant.participantId, chosen);
}

/** A change that found no row: the membership went away (its group was deleted) meanwhile. */
export function found(changed: boolean): void {
  if (!changed) throw PageError.notFound();
}

/** The privacy level the form chose; an invalid one is a 400 page leading back to `backHref`. */
export async function applyPrivacyLevel(
  choices: ParticipantChoices,
  member: Member,
  form: PageForm,
  backHref: string,
  via: PageVia,
  reach: RaiseReach = {},
): Promise<void> {
  const level = parsePrivacyLevel(form);
  if (level === null) throw new PageError(400, 'invalid-privacy-level', backHref);
  found(await choices.setPrivacyLevel(member, level, via, reach));
}

export async function applyEmailPreferences(
  choices: ParticipantChoices,
  member: Member,
  form: PageForm,
  via: PageVia,
  sessionId?: string,
): Promise<void> {
  found(await choices.setEmailPreferences(member, parseEmailPreferences(form), via, sessionId));
}
