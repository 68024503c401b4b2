/** Nearest-rank percentile of unsorted samples (0 when there are none). */
export function percentile(samples: number[], p: number): number {
  if (!samples.length) return 0;
  const sorted = Float64Array.from(samples).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export const round = (n: number, digits = 0): number => Number(n.toFixed(digits));

export function formatNumber(n: number, unit = ''): string {
  const digits = Math.abs(n) >= 100 ? 0 : Math.abs(n) >= 10 ? 1 : 2;
  const text = n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
  return unit ? `${text}${unit === '/s' ? '' : ' '}${unit}` : text;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Rejects with a message naming `what` if `promise` takes longer than `ms`. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
