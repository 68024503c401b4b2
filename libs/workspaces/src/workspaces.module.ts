import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { WorkspaceController } from './workspace.controller';
import { Workspace } from './workspace.entity';
import { WorkspaceRepository } from './workspace.repository';

@Module({
  imports: [MikroOrmModule.forFeature([Workspace])],
  controllers: [WorkspaceController],
  providers: [WorkspaceRepository],
  exports: [WorkspaceRepository],
})
export class WorkspacesModule {}
