import { Injectable } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { buildAsyncApiDocument } from './asyncapi-document';
import { dtoSchemas } from './dto-schemas';
import { buildOpenApiDocument } from './openapi-document';
import { RouteInfo, scanRoutes } from './route-scanner';

/** Builds the document once, on first request, from the routes this process registered. */
@Injectable()
export class OpenApiService {
  private cached?: Record<string, unknown>;
  private cachedAsync?: Record<string, unknown>;

  constructor(private readonly modules: ModulesContainer) {}

  routes(): RouteInfo[] {
    return scanRoutes(this.modules);
  }

  document(): Record<string, unknown> {
    this.cached ??= buildOpenApiDocument(this.routes(), dtoSchemas());
    return this.cached;
  }

  /** The NATS events as AsyncAPI, sharing this document's schemas. */
  asyncApiDocument(): Record<string, unknown> {
    this.cachedAsync ??= buildAsyncApiDocument(this.document());
    return this.cachedAsync;
  }
}
