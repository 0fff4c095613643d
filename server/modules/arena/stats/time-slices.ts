/**
 * A pause that gives the event loop back (setImmediate) once `sliceMs` have passed since the last
 * one, else returns at once: long work in steps, each step short, so no request waits long on it.
 */
export function yieldEvery(sliceMs: number): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    since = performance.now();
  };
}
