/** /health, /live and /ready. What other modules, app.ts, main.ts, cli/ and eval/ may use of it; nothing else of the module is theirs to import. */
export { healthRoutes } from './health-routes.ts';
