/**
 * Release windows by the calendar (docs/metrics.md, "Release windows"): a window is a month or an
 * ISO week (Monday to Sunday) of UTC days. Nothing here reads data: a window's days and the time
 * it is released follow from the calendar, the enterprise's setting and the grace period only.
 * Days are `YYYY-MM-DD` strings.
 */

export const WINDOW_KINDS = ['month', 'week'] as const;
export type WindowKind = (typeof WINDOW_KINDS)[number];

const DAY_MS = 86_400_000;

const toDate = (day: string): Date => new Date(`${day}T00:00:00.000Z`);
const toDay = (date: Date): string => date.toISOString().slice(0, 10);

/** `day` moved by `days`. */
export const addDays = (day: string, days: number): string =>
  toDay(new Date(toDate(day).getTime() + days * DAY_MS));

/** Whole days from `from` to `to`. */
export const daysBetween = (from: string, to: string): number =>
  Math.round((toDate(to).getTime() - toDate(from).getTime()) / DAY_MS);

/** The ISO week's Monday of `day`. */
export function mondayOf(day: string): string {
  const weekday = (toDate(day).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return addDays(day, -weekday);
}

/** The calendar window of `kind` that holds `day`. */
export function alignedWindow(
  kind: WindowKind,
  day: string,
): { firstDay: string; lastDay: string } {
  if (kind === 'week') {
    const firstDay = mondayOf(day);
    return { firstDay, lastDay: addDays(firstDay, 6) };
  }
  const date = toDate(day);
  const first = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
  const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0));
  return { firstDay: toDay(first), lastDay: toDay(last) };
}

/**
 * The window to make for `day` when none holds it: the calendar window of `kind`, cut short where
 * it would overlap the enterprise's windows before (`previousLastDay`) or after (`nextFirstDay`).
 * A change of kind so takes effect at the next window, whose first one may be shorter.
 */
export function windowFor(
  kind: WindowKind,
  day: string,
  previousLastDay: string | null,
  nextFirstDay: string | null,
): { firstDay: string; lastDay: string } {
  const aligned = alignedWindow(kind, day);
  const firstDay =
    previousLastDay && previousLastDay >= aligned.firstDay
      ? addDays(previousLastDay, 1)
      : aligned.firstDay;
  const lastDay =
    nextFirstDay && nextFirstDay <= aligned.lastDay ? addDays(nextFirstDay, -1) : aligned.lastDay;
  return { firstDay, lastDay };
}

/**
 * The most windows of a kind whose last days fit in any 365 days: 12 months (twelve month ends
 * are at least 334 days apart, thirteen at least 365), 53 ISO weeks. The per-release budget is
 * the yearly one divided by this and by the two series (budget.ts).
 */
export const WINDOWS_PER_YEAR: Record<WindowKind, number> = { month: 12, week: 53 };

/** When a window whose last day is `lastDay` is released: its end plus the grace period. */
export const releaseTime = (lastDay: string, graceHours: number): Date =>
  new Date(toDate(addDays(lastDay, 1)).getTime() + graceHours * 3_600_000);

/** The last day whose window may be released at `now`: windows ending on or before it are due. */
export const lastReleasableDay = (now: Date, graceHours: number): string =>
  addDays(toDay(new Date(now.getTime() - graceHours * 3_600_000)), -1);

/** The period keys of `groupBy` (docs/metrics.md): day and ISO week `YYYY-MM-DD`, month `YYYY-MM`. */
export type PeriodUnit = 'day' | 'week' | 'month';

/**
 * The period of `unit` a window belongs to, or null when the window is not inside one: a window
 * belongs to the periods that contain it whole, but an ISO week belongs to the month of its
 * Thursday (docs/metrics.md, "Answers"). No window fits in a day.
 */
export function periodOfWindow(
  unit: PeriodUnit,
  window: { kind: WindowKind; firstDay: string; lastDay: string },
): string | null {
  if (unit === 'day') return null;
  if (unit === 'week') {
    const monday = mondayOf(window.firstDay);
    return window.lastDay <= addDays(monday, 6) ? monday : null;
  }
  if (window.kind === 'week') {
    const thursday = addDays(mondayOf(window.firstDay), 3);
    return thursday.slice(0, 7);
  }
  return window.firstDay.slice(0, 7) === window.lastDay.slice(0, 7)
    ? window.firstDay.slice(0, 7)
    : null;
}
