/** No answer came within the time allowed. */
export class TooLateError extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
  }
}

/**
 * `work`'s result, or a TooLateError once `ms` have passed without one. The work itself goes on
 * (a query cannot be taken back); nobody waits for its late outcome.
 */
export async function withinTime<T>(ms: number, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TooLateError(ms)), ms);
  });
  try {
    // The race listens to both, so a late failure of the work is handled, not left unhandled.
    return await Promise.race([work(), late]);
  } finally {
    clearTimeout(timer);
  }
}
