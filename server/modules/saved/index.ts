/** Saved passages: a reader's own, with their notes, kept across devices (docs/api.md). What other modules, app.ts and cli/ may use of it. */
export { savedRoutes } from './saved-routes.ts';
export { deleteSavedOf } from './saved-sql.ts';
