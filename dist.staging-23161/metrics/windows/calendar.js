"use strict";
/**
 * Release windows by the calendar (docs/metrics.md, "Release windows"): a window is a month or an
 * ISO week (Monday to Sunday) of UTC days. Nothing here reads data: a window's days and the time
 * it is released follow from the calendar, the enterprise's setting and the grace period only.
 * Days are `YYYY-MM-DD` strings.
 */
Object.defineProperty(exports, "__esModule", { value: true });
exports.lastReleasableDay = exports.releaseTime = exports.WINDOWS_PER_YEAR = exports.daysBetween = exports.addDays = exports.WINDOW_KINDS = void 0;
exports.mondayOf = mondayOf;
exports.alignedWindow = alignedWindow;
exports.windowFor = windowFor;
exports.periodOfWindow = periodOfWindow;
exports.WINDOW_KINDS = ['month', 'week'];
const DAY_MS = 86_400_000;
const toDate = (day) => new Date(`${day}T00:00:00.000Z`);
const toDay = (date) => date.toISOString().slice(0, 10);
/** `day` moved by `days`. */
const addDays = (day, days) => toDay(new Date(toDate(day).getTime() + days * DAY_MS));
exports.addDays = addDays;
/** Whole days from `from` to `to`. */
const daysBetween = (from, to) => Math.round((toDate(to).getTime() - toDate(from).getTime()) / DAY_MS);
exports.daysBetween = daysBetween;
/** The ISO week's Monday of `day`. */
function mondayOf(day) {
    const weekday = (toDate(day).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
    return (0, exports.addDays)(day, -weekday);
}
/** The calendar window of `kind` that holds `day`. */
function alignedWindow(kind, day) {
    if (kind === 'week') {
        const firstDay = mondayOf(day);
        return { firstDay, lastDay: (0, exports.addDays)(firstDay, 6) };
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
function windowFor(kind, day, previousLastDay, nextFirstDay) {
    const aligned = alignedWindow(kind, day);
    const firstDay = previousLastDay && previousLastDay >= aligned.firstDay
        ? (0, exports.addDays)(previousLastDay, 1)
        : aligned.firstDay;
    const lastDay = nextFirstDay && nextFirstDay <= aligned.lastDay ? (0, exports.addDays)(nextFirstDay, -1) : aligned.lastDay;
    return { firstDay, lastDay };
}
/**
 * The most windows of a kind whose last days fit in any 365 days: 12 months (twelve month ends
 * are at least 334 days apart, thirteen at least 365), 53 ISO weeks. The per-release budget is
 * the yearly one divided by this and by the two series (budget.ts).
 */
exports.WINDOWS_PER_YEAR = { month: 12, week: 53 };
/** When a window whose last day is `lastDay` is released: its end plus the grace period. */
const releaseTime = (lastDay, graceHours) => new Date(toDate((0, exports.addDays)(lastDay, 1)).getTime() + graceHours * 3_600_000);
exports.releaseTime = releaseTime;
/** The last day whose window may be released at `now`: windows ending on or before it are due. */
const lastReleasableDay = (now, graceHours) => (0, exports.addDays)(toDay(new Date(now.getTime() - graceHours * 3_600_000)), -1);
exports.lastReleasableDay = lastReleasableDay;
/**
 * The period of `unit` a window belongs to, or null when the window is not inside one: a window
 * belongs to the periods that contain it whole, but an ISO week belongs to the month of its
 * Thursday (docs/metrics.md, "Answers"). No window fits in a day.
 */
function periodOfWindow(unit, window) {
    if (unit === 'day')
        return null;
    if (unit === 'week') {
        const monday = mondayOf(window.firstDay);
        return window.lastDay <= (0, exports.addDays)(monday, 6) ? monday : null;
    }
    if (window.kind === 'week') {
        const thursday = (0, exports.addDays)(mondayOf(window.firstDay), 3);
        return thursday.slice(0, 7);
    }
    return window.firstDay.slice(0, 7) === window.lastDay.slice(0, 7)
        ? window.firstDay.slice(0, 7)
        : null;
}
//# sourceMappingURL=calendar.js.map