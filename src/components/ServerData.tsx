import { Suspense, use, type ReactNode } from 'react';
import type { Settled } from '../lib/api/server-data.ts';

interface Props<T> {
  promise: Promise<Settled<T>>;
  failed: (error: unknown) => ReactNode;
  children: (value: T) => ReactNode;
}

function Settle<T>({ promise, failed, children }: Props<T>) {
  const settled = use(promise);
  return settled.ok ? children(settled.value) : failed(settled.error);
}

/**
 * Server data on a page (the promise from useServerData): `pending` while it is under way, then
 * `children` with the value, or `failed` with the error. When the promise changes (another key),
 * the shown value stays while the new one loads only if the change was made in a transition.
 */
export function ServerData<T>({ pending, ...props }: Props<T> & { pending: ReactNode }) {
  return (
    <Suspense fallback={pending}>
      <Settle {...props} />
    </Suspense>
  );
}
