/** The time source of time-based rules, replaced in tests so limits are tested without waiting. */
export abstract class Clock {
  abstract now(): number;
}

export class SystemClock extends Clock {
  now(): number {
    return Date.now();
  }
}
