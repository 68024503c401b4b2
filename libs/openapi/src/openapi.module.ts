import { Module } from '@nestjs/common';
import { OpenApiController } from './openapi.controller';
import { OpenApiService } from './openapi.service';

/** `/openapi.json`, `/asyncapi.json` and the `/docs` page (api, standalone). */
@Module({ controllers: [OpenApiController], providers: [OpenApiService], exports: [OpenApiService] })
export class OpenApiModule {}
