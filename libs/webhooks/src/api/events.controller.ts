import { CurrentPrincipal, Principal, ScopeResourceOf } from '@app/auth';
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ListEventsDto } from './dto/list-events.dto';
import { ReplayEventDto } from './dto/replay-event.dto';
import { EventReplay } from './event-replay.usecase';
import { EventRepository } from '../store/event.repository';

@Controller('v1/events')
@ScopeResourceOf('webhooks')
export class EventsController {
  constructor(
    private readonly events: EventRepository,
    private readonly replays: EventReplay,
  ) {}

  @Get()
  list(@CurrentPrincipal() p: Principal, @Query() q: ListEventsDto) {
    return this.events.list(p.workspaceId, { ...q, types: q.type, limit: q.limit ?? 25 });
  }

  @Get(':id')
  async get(@CurrentPrincipal() p: Principal, @Param('id') id: string) {
    return { event: await this.events.get(p.workspaceId, id) };
  }

  /** 202: the deliveries are due now and go out from the nodes' delivery workers. */
  @Post(':id/replay')
  @HttpCode(202)
  replay(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: ReplayEventDto) {
    return this.replays.replay(p.workspaceId, id, body?.endpointId);
  }
}
