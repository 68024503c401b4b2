import { Public } from '@app/auth';
import { notFound } from '@app/kernel';
import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DOCS_PAGE } from './docs-page';
import { OpenApiService } from './openapi.service';

/** Only what the page loads; nothing else of the package is reachable. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
};
const assetDir = (): string => join(require.resolve('swagger-ui-dist/package.json'), '..');

@Controller()
@Public()
export class OpenApiController {
  constructor(private readonly openapi: OpenApiService) {}

  @Get('openapi.json')
  document() {
    return this.openapi.document();
  }

  @Get('asyncapi.json')
  asyncApiDocument() {
    return this.openapi.asyncApiDocument();
  }

  @Get('docs')
  @Header('content-type', 'text/html; charset=utf-8')
  page(): string {
    return DOCS_PAGE;
  }

  @Get('docs/:asset')
  @Header('cache-control', 'public, max-age=86400')
  async asset(@Param('asset') asset: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<Buffer> {
    if (!Object.hasOwn(ASSETS, asset)) throw notFound('Asset');
    void reply.type(ASSETS[asset]);
    return readFile(join(assetDir(), asset));
  }
}
