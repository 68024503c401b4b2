import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { ApiKey } from './api-key.entity';
import { ApiKeyService } from './api-key.service';

/** Workspace API keys: storage, issue and revoke, and the resolver that authenticates them (see AuthModule). */
@Module({
  imports: [MikroOrmModule.forFeature([ApiKey])],
  providers: [ApiKeyService],
  exports: [ApiKeyService],
})
export class ApiKeysModule {}
