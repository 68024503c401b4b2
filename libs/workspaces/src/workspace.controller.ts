import { AnyScope, CurrentPrincipal, Principal } from '@app/auth';
import { Controller, Get } from '@nestjs/common';
import { WorkspaceView, toWorkspaceView } from './workspace.entity';
import { WorkspaceRepository } from './workspace.repository';

/** What the calling credential belongs to: lets a developer check a key (or any scoped token) in one call. */
@Controller('v1/workspace')
@AnyScope()
export class WorkspaceController {
  constructor(private readonly workspaces: WorkspaceRepository) {}

  @Get()
  async current(@CurrentPrincipal() principal: Principal): Promise<{ workspace: WorkspaceView }> {
    return { workspace: toWorkspaceView(await this.workspaces.get(principal.workspaceId)) };
  }
}
