import { useSyncExternalStore } from 'react';

const subscribe = () => () => undefined;

/**
 * False while the app is still taking over pre-rendered HTML (and in the pre-render itself), true
 * once the page answers to the app: for controls that must not act before then.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
