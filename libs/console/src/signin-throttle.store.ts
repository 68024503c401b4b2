import { MikroSqlExecutor } from '@app/persistence';
import { Injectable } from '@nestjs/common';
import {
  FAILURES_PER_ADDRESS,
  FAILURES_PER_EMAIL,
  FailureCount,
  THROTTLE_WINDOW_SECONDS,
  lockedForSeconds,
} from './signin-throttle.policy';

const emailKey = (email: string) => `email:${email.trim().toLowerCase()}`;
const addressKey = (ip: string) => `ip:${ip}`;

/** Counts failed sign-ins in PostgreSQL, so every api replica enforces the same limit. */
@Injectable()
export class SignInThrottle {
  constructor(private readonly db: MikroSqlExecutor) {}

  /** Seconds the caller must wait before trying again; 0 when it may try now. */
  async retryAfter(email: string, ip: string): Promise<number> {
    const rows = await this.db.query<{ key: string; failures: number; window_started_at: Date | string }>(
      'select key, failures, window_started_at from console_signin_failures where key in (?, ?)',
      [emailKey(email), addressKey(ip)],
    );
    const count = (key: string): FailureCount | undefined => {
      const row = rows.find((r) => r.key === key);
      return row ? { failures: row.failures, windowStartedAt: new Date(row.window_started_at) } : undefined;
    };
    const now = new Date();
    return Math.max(
      lockedForSeconds(count(emailKey(email)), FAILURES_PER_EMAIL, now),
      lockedForSeconds(count(addressKey(ip)), FAILURES_PER_ADDRESS, now),
    );
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    for (const key of [emailKey(email), addressKey(ip)]) {
      await this.db.query(
        `insert into console_signin_failures (key, failures, window_started_at) values (?, 1, now())
         on conflict (key) do update set
           failures = case when console_signin_failures.window_started_at < now() - make_interval(secs => ?)
                      then 1 else console_signin_failures.failures + 1 end,
           window_started_at = case when console_signin_failures.window_started_at < now() - make_interval(secs => ?)
                      then now() else console_signin_failures.window_started_at end`,
        [key, THROTTLE_WINDOW_SECONDS, THROTTLE_WINDOW_SECONDS],
      );
    }
  }

  async clear(email: string): Promise<void> {
    await this.db.query('delete from console_signin_failures where key = ?', [emailKey(email)]);
  }
}
