/**
 * A passage as the arena's tallies keep it (arena_rounds' lo_passage and hi_passage): by its set
 * and its id (migration 009), so that `ch7-13` of `v1` and `ch7-13` of today are two passages.
 */
export const passageKey = (set: string, id: string | null): string | null => (id === null ? null : `${set}/${id}`);

/** The same key, worked out by the database from a feedback row (null for a vote on no passage). */
export const PASSAGE_KEY_SQL = `passage_set || '/' || passage_id`;
