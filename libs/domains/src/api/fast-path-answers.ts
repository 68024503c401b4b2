import { metricsRegistry } from '@app/metrics';
import { Gauge } from 'prom-client';

/** Answers of one fast path in this process, read by /metrics when scraped (nothing per request). */
export function fastPathAnswers(name: string, help: string): { answered: number } {
  const counter = { answered: 0 };
  new Gauge({
    name,
    help,
    registers: [metricsRegistry],
    collect() {
      this.set(counter.answered);
    },
  });
  return counter;
}
