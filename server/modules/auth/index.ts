/** Sign-in: passwords (argon2id), tokens and the key ring, sessions, users and signing keys in SQL, the login throttle policy, the authenticate hook and the /login /refresh /logout routes. What other modules, app.ts, main.ts, cli/ and eval/ may use of it; nothing else of the module is theirs to import. */
export { authRoutes } from './auth-routes.ts';
export { AuthService } from './auth-service.ts';
export { authentication, bearerToken, callerOf, sessionEnded } from './authenticate.ts';
export { createInvitation, MAX_INVITATION_SECONDS, newInvitationToken } from './invitations.ts';
export { StoredKeyRing, rotateSigningKey, staticKeyRing } from './key-ring.ts';
export { dummyPasswordHash, generatePassword, hashPassword, passwordProblem } from './passwords.ts';
export { deleteEndedSessions, deleteSessionsOf, liveSessionParams, liveSessionSql, revokeUserSessions, type LiveSession } from './sql/sessions.ts';
export { forgetInvitationsOf, listPendingInvitations, revokeInvitation } from './sql/invitations.ts';
export { listSigningKeys } from './sql/signing-keys.ts';
export { USERNAME_PATTERN, countUsers, deleteUser, findUser, insertUser, listUsers, normaliseUsername, setDisabled, setPasswordHash, USERNAME_RULE } from './sql/users.ts';
export { THROTTLE_WINDOW_MS, describeWait } from './throttle-policy.ts';
