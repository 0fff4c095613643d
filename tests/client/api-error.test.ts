import { describe, expect, it } from 'vitest';
import { ApiError, errorFromResponse } from '../../src/lib/api/api-error.ts';

describe('what a failed refresh means for the session', () => {
  const refused = async (status: number) => (await errorFromResponse(new Response('{}', { status }), 'Session expired. Please login again.')).endsSession;

  it('ends it only when the server refuses the token: 400, 401, 403', async () => {
    expect(await Promise.all([400, 401, 403].map(refused))).toEqual([true, true, true]);
  });

  it('keeps it when the answer says nothing of the token: a proxy or server in trouble, a limit, a time-out', async () => {
    expect(await Promise.all([404, 408, 429, 500, 502, 503, 504].map(refused))).toEqual([false, false, false, false, false, false, false]);
    expect(new ApiError('network', 'Network error during token refresh').endsSession).toBe(false);
  });
});
