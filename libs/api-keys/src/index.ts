export { apiKeySchema, type ApiKeyView, toApiKeyView } from './api-key.entity';
export { ApiKeyService } from './api-key.service';
export { ApiKeysModule } from './api-keys.module';
