import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { ApiKey } from './api-key.entity';
import { ApiKeyHotReads } from './api-key-hot.reads';
import { ApiKeyService } from './api-key.service';

/** Workspace API keys: storage, issue and revoke, and the resolver that authenticates them (see AuthModule). */
@Module({
  imports: [MikroOrmModule.forFeature([ApiKey])],
  providers: [ApiKeyService, ApiKeyHotReads],
  exports: [ApiKeyService],
})
export class ApiKeysModule {}
