import { APP_CONFIG, AppConfig } from '@app/config';
import { MikroSqlExecutor, randomBase62 } from '@app/persistence';
import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { ConsoleUser } from './access';

const sessionHash = (token: string) => createHash('sha256').update(token).digest('hex');

interface SessionRow {
  csrf_token: string;
  token_hash: string;
  user_id: string;
  email: string;
  name: string | null;
  operator: boolean;
}

/** Server-side console sessions: a random cookie token, idle and absolute expiry, revocable at once. */
@Injectable()
export class ConsoleSessions {
  constructor(
    private readonly db: MikroSqlExecutor,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * A new session, and the user's last sign-in, in one statement; the token goes in the cookie and
   * nowhere else. Undefined when the user is disabled (or gone): no session is opened.
   */
  async open(userId: string): Promise<{ token: string; maxAgeSeconds: number } | undefined> {
    const token = randomBase62(32);
    const maxAgeSeconds = this.config.consoleSessionHours * 3600;
    const opened = await this.db.query(
      `with signed_in as (
         update console_users set last_sign_in_at = now() where id = ? and disabled_at is null returning id
       )
       insert into console_sessions (token_hash, user_id, csrf_token, expires_at)
       select ?, id, ?, now() + make_interval(secs => ?) from signed_in
       returning 1`,
      [userId, sessionHash(token), randomBase62(24), maxAgeSeconds],
    );
    // Expired rows of everyone are swept here, so the table does not grow without bound.
    await this.db.query('delete from console_sessions where expires_at < now()');
    return opened.length ? { token, maxAgeSeconds } : undefined;
  }

  /** The live session of a cookie token, touched (idle expiry restarts); undefined when expired or unknown. */
  async resolve(token: string): Promise<{ user: ConsoleUser; csrfToken: string; hash: string } | undefined> {
    const rows = await this.db.query<SessionRow>(
      `update console_sessions s set last_seen_at = now() from console_users u
       where s.token_hash = ? and u.id = s.user_id and u.disabled_at is null and s.expires_at > now()
         and s.last_seen_at > now() - make_interval(mins => ?)
       returning s.token_hash, s.csrf_token, s.user_id, u.email, u.name, u.operator`,
      [sessionHash(token), this.config.consoleIdleMinutes],
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      user: { id: row.user_id, email: row.email, name: row.name, operator: row.operator },
      csrfToken: row.csrf_token,
      hash: row.token_hash,
    };
  }

  async close(hash: string): Promise<void> {
    await this.db.query('delete from console_sessions where token_hash = ?', [hash]);
  }

  /** Every other session of the user ends (after they changed their own password); this one stays. */
  async closeOthers(userId: string, keepHash: string): Promise<number> {
    const rows = await this.db.query('delete from console_sessions where user_id = ? and token_hash <> ? returning 1', [
      userId,
      keepHash,
    ]);
    return rows.length;
  }

  /** Sign-out everywhere: every session of the user ends, on every browser. */
  async closeAll(userId: string): Promise<number> {
    const rows = await this.db.query('delete from console_sessions where user_id = ? returning 1', [userId]);
    return rows.length;
  }
}
