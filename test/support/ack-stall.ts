/**
 * Watches a running count of acknowledged requests and measures the longest time it stood still:
 * how long an outage stopped the clients' writes, i.e. that the outage was felt at all.
 */
export function watchAckStall(acked: () => number, everyMs = 25): { stop(): number } {
  let last = acked();
  let lastChangeAt = Date.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = Date.now();
    const count = acked();
    if (count !== last) {
      longest = Math.max(longest, now - lastChangeAt);
      last = count;
      lastChangeAt = now;
    }
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(longest, Date.now() - lastChangeAt);
    },
  };
}
