// Test helper: counts the timers started through globalThis.setTimeout that have neither fired
// nor been cleared. Deno's sanitizers do not report a pending timer, so tests that must leave no
// timer behind assert on this count.

/** Timers started and not yet fired or cleared, while tracking. */
export interface TimerTracker extends Disposable {
  /** How many timers are pending. */
  readonly pending: number;
}

/** Starts tracking; dispose of the result (or call its dispose) to restore the globals. */
export function trackTimers(): TimerTracker {
  const realSet = globalThis.setTimeout;
  const realClear = globalThis.clearTimeout;
  const live = new Set<ReturnType<typeof setTimeout>>();
  globalThis.setTimeout = ((handler: () => void, ms?: number) => {
    const id = realSet(() => {
      live.delete(id);
      handler();
    }, ms);
    live.add(id);
    return id;
  }) as typeof setTimeout;
  globalThis.clearTimeout = ((id?: ReturnType<typeof setTimeout>) => {
    if (id !== undefined) live.delete(id);
    realClear(id);
  }) as typeof clearTimeout;
  return {
    get pending() {
      return live.size;
    },
    [Symbol.dispose]() {
      globalThis.setTimeout = realSet;
      globalThis.clearTimeout = realClear;
      for (const id of live) realClear(id);
    },
  };
}

/** Counts the listeners currently added to `signal` (added minus removed) from now on. */
export function countListeners(signal: AbortSignal): { readonly count: number } {
  let count = 0;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = ((...args: Parameters<typeof add>) => {
    count++;
    add(...args);
  }) as typeof add;
  signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
    count--;
    remove(...args);
  }) as typeof remove;
  return {
    get count() {
      return count;
    },
  };
}
