/**
 * The level the API shows a session at (docs/privacy.md): the lower of its own level and the
 * member's level now. A session without a level of its own has no result to show. SQL over
 * `sessions s` joined to its membership `m`.
 */
export const SHOWN_LEVEL = 'LEAST(coalesce(s.shared_level, 0), m.privacy_level)';
