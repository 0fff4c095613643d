import type { InvitationAccept, InvitationAccepted, InvitationCheck, InvitationReply } from '../../../contract/api-schemas.ts';
import { isRedirect } from './auth-api.ts';
import { useSession } from './session-store.ts';
import { isUserType, type UserType } from './user-type.ts';
import { apiUrl } from '../../lib/api/api-base.ts';
import { ApiError, errorFromResponse, NETWORK_ERROR_MESSAGE } from '../../lib/api/api-error.ts';
import { apiObject, POST_NOT_REDIRECTED } from '../../lib/api/api-reply.ts';

// Invitations (/invite/:token) in a file of their own: only the invitation page loads it, so the
// first load of every other page carries none of it.

/** POST a JSON body to an invitation route; its reply's body, or the API's refusal as an ApiError. */
async function postInvitation(path: string, body: unknown, fallback: string): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(apiUrl(path), { ...POST_NOT_REDIRECTED, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  } catch {
    throw new ApiError('network', NETWORK_ERROR_MESSAGE);
  }
  if (isRedirect(response)) throw new ApiError('network', NETWORK_ERROR_MESSAGE);
  if (!response.ok) throw await errorFromResponse(response, fallback);
  const reply = await apiObject(response);
  if (!reply) throw new ApiError('network', NETWORK_ERROR_MESSAGE);
  return reply;
}

/** POST /invitations/check: whether the link's invitation may be used, and the user type it fixes (null: the reader's choice). */
export async function requestInvitationCheck(token: string): Promise<InvitationReply> {
  const reply = await postInvitation('/invitations/check', { token } satisfies InvitationCheck, 'This invitation could not be checked. Please try again.');
  return { user_type: isUserType(reply.user_type) ? reply.user_type : null, expires_at: String(reply.expires_at ?? '') };
}

/** POST /invitations/accept: makes the account; the tokens /login would give, and the user type it was made as. */
export async function requestInvitationAccept(form: InvitationAccept): Promise<InvitationAccepted> {
  const reply = await postInvitation('/invitations/accept', form, 'Your account could not be made. Please try again.');
  if (typeof reply.access_token !== 'string' || typeof reply.refresh_token !== 'string') throw new ApiError('network', NETWORK_ERROR_MESSAGE);
  return reply as unknown as InvitationAccepted;
}

/** Makes the account an invitation link offers and signs in with it, as the user type it was made as. */
export async function acceptInvitation(form: { token: string; username: string; password: string; userType?: UserType }): Promise<void> {
  const { token, username, password, userType } = form;
  const reply = await requestInvitationAccept({ token, username, password, ...(userType ? { user_type: userType } : {}) });
  const session = useSession.getState();
  session.startSession(reply, reply.username);
  if (isUserType(reply.user_type)) session.setUserType(reply.user_type);
}
