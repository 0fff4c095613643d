/** What a reader is told when the server cannot be reached (product spec, error catalogue). */
export const NETWORK_ERROR_MESSAGE = 'Network error. Please try again.';

/** What went wrong with a call, typed so the UI can say the right sentence. */
export type ApiErrorKind = 'network' | 'unauthorized' | 'validation' | 'rate-limited' | 'server';

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly status = 0,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The server never answered, or answered 5xx: worth trying again later. */
  get retryable(): boolean {
    return this.kind === 'network' || this.kind === 'server';
  }

  /**
   * Whether a failed token refresh means the session is over: only the server refusing the
   * token (401/403, or 400 for one it cannot read) ends it. No answer, a 5xx (a proxy whose
   * upstream is down, a database away), a 429, a 408 or a 404 from a proxy mid-deploy say
   * nothing of the token, so the reader stays signed in and the refresh is tried again later.
   */
  get endsSession(): boolean {
    return this.kind === 'unauthorized' || this.status === 400;
  }
}

function kindOf(status: number): ApiErrorKind {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 429) return 'rate-limited';
  if (status >= 500) return 'server';
  return 'validation';
}

/** The server's `detail` (or `message`) when the body has one. */
export async function serverDetail(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.json()) as { detail?: unknown; message?: unknown };
    if (typeof body.detail === 'string' && body.detail) return body.detail;
    if (typeof body.message === 'string' && body.message) return body.message;
  } catch {
    // Not JSON: no detail to show.
  }
  return undefined;
}

/** The error for a reply of this status, in the server's words when it gave any. */
export function errorFor(status: number, detail: string | undefined, fallback: string): ApiError {
  return new ApiError(kindOf(status), detail ?? fallback, status);
}

export async function errorFromResponse(response: Response, fallback: string): Promise<ApiError> {
  return errorFor(response.status, await serverDetail(response), fallback);
}
