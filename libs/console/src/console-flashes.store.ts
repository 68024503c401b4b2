import { SecretBox } from '@app/crypto';
import { MikroSqlExecutor, newId } from '@app/persistence';
import { Injectable } from '@nestjs/common';

/**
 * What a create-once page shows once: a new API key, a webhook or OAuth client secret, a domain's
 * connect link, a one-time password.
 */
export type Flash =
  | { kind: 'oauth_client'; workspaceId: string; clientId: string; secret: string }
  | {
      kind: 'connect_link';
      workspaceId: string;
      domainId: string;
      link: { url: string; expiresAt: string; guessedBase?: string };
    }
  | { kind: 'api_key'; workspaceId: string; id: string; key: string; name: string | null }
  | { kind: 'webhook_secret'; workspaceId: string; endpointId: string; secret: string; rotated: boolean }
  | { kind: 'password'; userId: string; email: string; password: string; created: boolean };

/** Older flashes are never shown: a page not opened within this time lost its secret. */
const FLASH_MINUTES = 10;

/**
 * Create-once pages post, redirect and show once (console_flashes): the POST stores the secret
 * sealed and tied to the session, its redirect names the flash, and the first GET deletes and
 * shows it. A reload creates nothing and shows the secret no more; another session cannot read it.
 */
@Injectable()
export class ConsoleFlashes {
  constructor(
    private readonly db: MikroSqlExecutor,
    private readonly box: SecretBox,
  ) {}

  async put(sessionHash: string, flash: Flash): Promise<string> {
    const id = newId('fl');
    await this.db.query('insert into console_flashes (id, token_hash, sealed) values (?, ?, ?)', [
      id,
      sessionHash,
      this.box.seal(JSON.stringify(flash)),
    ]);
    return id;
  }

  /** The flash, once: deleted as it is read, and only for the session that made it. */
  async take(sessionHash: string, id: string | undefined): Promise<Flash | undefined> {
    if (!id) return undefined;
    const rows = await this.db.query<{ sealed: string }>(
      `delete from console_flashes where id = ? and token_hash = ?
         and created_at > now() - make_interval(mins => ?) returning sealed`,
      [id, sessionHash, FLASH_MINUTES],
    );
    await this.db.query('delete from console_flashes where created_at < now() - make_interval(mins => ?)', [
      FLASH_MINUTES,
    ]);
    return rows[0] ? (JSON.parse(this.box.open(rows[0].sealed)) as Flash) : undefined;
  }
}
