import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { dateTime, described, Infer, nullable, obj, str } from '@app/kernel';
import { newId } from '@app/persistence';

/** An API key; only its SHA-256 hash is stored, the key itself is shown once at creation. */
@Entity({ tableName: 'api_keys' })
export class ApiKey {
  @PrimaryKey({ type: 'text' })
  id: string = newId('key');

  @Property({ type: 'text' })
  workspaceId: string;

  @Property({ type: 'text', unique: true })
  keyHash: string;

  /** What a person calls it ("production", "staging"); optional, set at creation. */
  @Property({ type: 'text', nullable: true })
  name: string | null = null;

  /** The last characters, so a dashboard can tell keys apart. */
  @Property({ type: 'text' })
  keyHint: string;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', nullable: true })
  revokedAt: Date | null = null;

  /** To the minute; recorded by the background recheck of keys in use (ApiKeyService), never per request. */
  @Property({ type: 'datetime', nullable: true })
  lastUsedAt: Date | null = null;

  constructor(workspaceId: string, keyHash: string, keyHint: string, name: string | null = null) {
    this.workspaceId = workspaceId;
    this.keyHash = keyHash;
    this.keyHint = keyHint;
    this.name = name;
  }
}

export const apiKeySchema = obj({
  id: str(),
  workspaceId: str(),
  name: nullable(str('What a person calls the key ("production"), given at creation; null when none was')),
  hint: str(),
  createdAt: dateTime(),
  revokedAt: dateTime(true),
  lastUsedAt: described(dateTime(true), 'When the key was last used, to the minute (recorded within seconds)'),
});
export type ApiKeyView = Infer<typeof apiKeySchema>;

export function toApiKeyView(key: ApiKey): ApiKeyView {
  return {
    id: key.id,
    workspaceId: key.workspaceId,
    name: key.name,
    hint: key.keyHint,
    createdAt: key.createdAt.toISOString(),
    revokedAt: key.revokedAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  };
}
