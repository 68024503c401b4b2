import { ApiKeysModule } from '@app/api-keys';
import { WorkspacesModule } from '@app/workspaces';
import { Module } from '@nestjs/common';
import { AdminController } from './admin.controller';
import { AdminUseCases } from './admin.usecases';

@Module({
  imports: [WorkspacesModule, ApiKeysModule],
  controllers: [AdminController],
  providers: [AdminUseCases],
  exports: [AdminUseCases],
})
export class AdminModule {}
