import { useEffect, useRef } from 'react';

/** What the inline script (contract/early-input-script.ts) keeps: taps in order, and the controls now live. */
interface EarlyInput {
  pending: string[];
  live: Record<string, boolean>;
}

declare global {
  interface Window {
    __earlyInput?: EarlyInput;
  }
}

/** From now on control `action` answers for itself: later taps reach it directly. */
export function markLive(action: string, early: EarlyInput | undefined = window.__earlyInput): void {
  if (early) early.live[action] = true;
}

/** The taps on control `action` made before the app had taken it over, each handed out once. */
export function takeEarlyTaps(action: string, early: EarlyInput | undefined = window.__earlyInput): number {
  if (!early) return 0;
  const kept = early.pending.filter((a) => a === action).length;
  early.pending = early.pending.filter((a) => a !== action);
  return kept;
}

/**
 * Once the component has mounted (taken over its pre-rendered control), replays every tap made on
 * it before: `times` caps them (a form is sent once however often it was submitted). The replay
 * runs in a task of its own, after the values typed before the app loaded have reached its state.
 */
export function useEarlyAction(action: string, handler: () => void, times = Infinity): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    markLive(action);
    const timer = setTimeout(() => {
      const taps = Math.min(takeEarlyTaps(action), times);
      for (let i = 0; i < taps; i++) latest.current();
    }, 0);
    return () => clearTimeout(timer);
  }, [action, times]);
}
