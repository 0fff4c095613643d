/**
 * A POST that is never redirected. A redirect is not the API's answer (a captive portal, a sign-in
 * wall), and following one would carry the body (a vote, a password, a refresh token) and its token
 * on to wherever it points. Used by the page and by the service worker alike.
 */
export const POST_NOT_REDIRECTED: Pick<RequestInit, 'method' | 'redirect'> = { method: 'POST', redirect: 'manual' };

/**
 * A reply's body as the API writes it: a JSON object, labelled so. Anything else (a portal's or a
 * proxy's page, an empty body, a redirect, a body cut off on its way) is `undefined`: not the API's
 * words.
 */
export async function apiObject(response: Response): Promise<Record<string, unknown> | undefined> {
  if (!/^application\/json\b/i.test(response.headers.get('content-type')?.trim() ?? '')) return undefined;
  try {
    const body: unknown = JSON.parse(await response.text());
    return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
