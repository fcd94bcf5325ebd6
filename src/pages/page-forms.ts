/**
 * The participant pages' form fields (application/x-www-form-urlencoded, parsed into a plain
 * object by request-body.ts). Pure: each returns the field's value or null when it is invalid.
 */
import { MAX_PRIVACY_LEVEL, MIN_PRIVACY_LEVEL } from '../common/privacy-model';
import type { EmailPreferences } from '../participants/email-preferences';
import { SAVED_MESSAGES, SavedFlag } from './pages.messages';

/** A parsed form body; absent when the request had none. */
export type PageForm = Record<string, unknown> | undefined | null;

const field = (form: PageForm, name: string): unknown =>
  form !== null && typeof form === 'object' && Object.hasOwn(form, name) ? form[name] : undefined;

/** `privacyLevel`: one decimal digit from 0 to 5 (a form sends strings); otherwise null. */
export function parsePrivacyLevel(form: PageForm): number | null {
  const value = field(form, 'privacyLevel');
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^\d$/.test(text)) return null;
  const level = Number(text);
  return level >= MIN_PRIVACY_LEVEL && level <= MAX_PRIVACY_LEVEL ? level : null;
}

const CHECKED = new Set<unknown>(['on', 'true', '1', 'yes', true]);

/** Checkboxes: a checked box is sent (as `on`), an unchecked one is absent, which means false. */
export function parseEmailPreferences(form: PageForm): EmailPreferences {
  return {
    checkinReminder: CHECKED.has(field(form, 'checkinReminder')),
    privacyRequest: CHECKED.has(field(form, 'privacyRequest')),
  };
}

/** `shareEarlier`: the "Also share my earlier check-ins done in this browser" box, unticked = false. */
export const parseShareEarlier = (form: PageForm): boolean =>
  CHECKED.has(field(form, 'shareEarlier'));

/** The `?saved=` confirmation flag of a page address; anything unknown is ignored. */
export function parseSavedFlag(value: unknown): SavedFlag | null {
  return typeof value === 'string' && Object.hasOwn(SAVED_MESSAGES, value)
    ? (value as SavedFlag)
    : null;
}
