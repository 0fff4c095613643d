/** The arena (docs/arena.md): the draw, the /search route that shows a round, votes and their shown-check, the rounds' SQL, the statistics and leaderboard, the vote export. What other modules, app.ts, main.ts, cli/ and eval/ may use of it; nothing else of the module is theirs to import. */
export { decidedRoundsPerPair, leastDecidedPair, pairCounts } from './draw.ts';
export { EXPORT_FORMATS, parseExportCursor, parseExportTime } from './export-format.ts';
export type { ExportFormat } from './export-format.ts';
export { recheckVotes } from './recheck-votes.ts';
export { roundReceipt } from './search-receipt.ts';
export { feedbackRoutes } from './routes/feedback-routes.ts';
export { searchRoutes } from './routes/search-routes.ts';
export { statsRoutes } from './routes/stats-routes.ts';
export { ShownCheck } from './shown-check.ts';
export { loadTallies } from './sql/load-tallies.ts';
export { PASSAGE_KEY_SQL, passageKey } from './passage-key.ts';
export { deleteFeedbackBefore, deleteFeedbackOf, tallyVotes } from './sql/feedback.ts';
export { computeStats } from './stats/model-stats.ts';
export { writeVoteExport } from './vote-export.ts';
export { Tallier } from './tallier.ts';
export { VoteService } from './vote-service.ts';
export { DEVICE_RECEIPT, VoteCheck } from './vote-check.ts';
