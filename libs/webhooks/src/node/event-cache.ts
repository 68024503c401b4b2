import { BoundedCache } from '@app/kernel';
import type { SqlExecutor } from '@app/persistence';
import { eventsByIds } from '../store/delivery.queries';
import { SerializedEvent, serializeEvent } from '../model/envelope';

const MAX_EVENTS = 5_000;

/**
 * Events are immutable: a worker reads each once and serializes its payload once, however many
 * endpoints it goes to (an event for 100 endpoints is 1 read, not 100). Least recently used go first.
 */
export class EventCache {
  private readonly events = new BoundedCache<SerializedEvent>({ maxEntries: MAX_EVENTS });

  constructor(private readonly db: SqlExecutor) {}

  async get(ids: string[]): Promise<Map<string, SerializedEvent>> {
    const missing = [...new Set(ids)].filter((id) => this.events.peek(id) === undefined);
    if (missing.length) {
      for (const row of await eventsByIds(this.db, missing)) {
        const event = serializeEvent(row);
        this.events.set(event.id, event);
      }
    }
    const found = new Map<string, SerializedEvent>();
    for (const id of ids) {
      const event = this.events.get(id);
      if (event) found.set(id, event);
    }
    return found;
  }
}
