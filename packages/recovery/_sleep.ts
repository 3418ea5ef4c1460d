// Private: the default sleep of a retry policy, a timer that an AbortSignal cancels.

/**
 * Resolves after `ms` milliseconds, or rejects with `signal.reason` as soon as `signal` aborts
 * (at once when it already has). The timer and the abort listener are both removed whichever
 * comes first, so nothing is left behind.
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
