/** The offline pack a device downloads to search without the network: its builder and its route. What other modules, app.ts, main.ts, cli/ and eval/ may use of it; nothing else of the module is theirs to import. */
export { offlinePackRoutes } from './pack-routes.ts';
