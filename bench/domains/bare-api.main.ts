import 'reflect-metadata';
import { Body, Controller, Get, HttpCode, Module, Param, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';

/**
 * The baseline of the API benchmarks: NestJS on the same Fastify adapter, one controller answering
 * `GET /v1/domains/:id` and `POST /v1/domains` with a fixed JSON object (the real service's answer
 * captured in the same run, from BARE_GET_BODY and BARE_POST_BODY): no auth, no database, no bus.
 */
const getBody = JSON.parse(process.env.BARE_GET_BODY ?? '{}') as object;
const postBody = JSON.parse(process.env.BARE_POST_BODY ?? '{}') as object;

@Controller('v1/domains')
class BareDomainsController {
  @Get(':id')
  get(@Param('id') _id: string) {
    return getBody;
  }

  @Post()
  @HttpCode(201)
  create(@Body() _body: unknown) {
    return postBody;
  }
}

@Module({ controllers: [BareDomainsController] })
class BareModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestFastifyApplication>(BareModule, new FastifyAdapter(), { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`bare api listening on http://127.0.0.1:${port}\n`);
  const stop = () => void app.close().finally(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.stdin.once('end', stop).resume();
}

main().catch((error: unknown) => {
  process.stderr.write(`bare api failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
