/** What each instance forgets, and when: settled sign-in counts, ended sessions, old votes. What other modules, app.ts, main.ts, cli/ and eval/ may use of it; nothing else of the module is theirs to import. */
export { VOTE_RETENTION_DAYS, keepForgetting } from './housekeeping.ts';
