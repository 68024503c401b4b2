import { Get, Query } from '@nestjs/common';
import { ConsoleActor } from './access';
import { ConsoleAccess } from './console-access';
import { ConsoleController } from './console-controller';
import { Actor } from './console-request';
import { ConsoleQueries } from './console.queries';
import { searchPage } from './views/search.page';

const LIMIT = 50;

/** Operators find a hostname across every workspace (members search their own workspace's domains list). */
@ConsoleController()
export class ConsoleSearchController {
  constructor(private readonly queries: ConsoleQueries) {}

  @ConsoleAccess('operator')
  @Get('search')
  async search(@Actor() actor: ConsoleActor, @Query('q') typed?: string) {
    const q = typed?.trim().slice(0, 253) || undefined;
    return searchPage(actor, q, q ? await this.queries.hostnamesContaining(q, LIMIT) : [], LIMIT);
  }
}
