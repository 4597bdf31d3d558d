/**
 * How long this process's event loop went without turning while something ran: a ticker every
 * `intervalMs`; `stop()` ends it and gives the longest gap between ticks, in ms. Work on this
 * thread shows as one long gap; work in another process does not.
 */
export function watchEventLoop(intervalMs = 5): { stop(): number } {
  let longestGap = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    longestGap = Math.max(longestGap, now - last);
    last = now;
  }, intervalMs);
  return {
    stop() {
      clearInterval(ticker);
      return longestGap;
    },
  };
}
