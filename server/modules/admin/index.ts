/** The users and keys commands, the socket a server on the embedded store runs them on, and the demo user. What other modules, app.ts, main.ts, cli/ and eval/ may use of it; nothing else of the module is theirs to import. */
export { AdminTimeoutError, AdminUnreachableError, sendUserCommand, streamVoteExport } from './admin-client.ts';
export { adminSocketPath, checkAdminSocketPath, listenForAdmin, reachAdminSocket } from './admin-socket.ts';
export { ensureDemoUser } from './bootstrap.ts';
export { UserCommandError, runUserCommand } from './user-commands.ts';
export type { UserCommand } from './user-commands.ts';
