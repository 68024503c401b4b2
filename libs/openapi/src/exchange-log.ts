import { ModulesContainer } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { appendFileSync } from 'node:fs';
import { checkExchangesAgainstOpenApi } from './exchange-check';
import { OpenApiService } from './openapi.service';

/**
 * Tests only (OPENAPI_VIOLATIONS_FILE): a process the tests spawn checks each of its HTTP exchanges
 * against the OpenAPI document of its own routes (the one /openapi.json serves, where it serves it)
 * and appends every violation to `file` as a JSON line `{role, pid, method, path, status, problem}`;
 * the spawning test fails on those lines. Call before `listen`.
 */
export async function logOpenApiViolations(app: NestFastifyApplication, role: string, file: string): Promise<void> {
  // Built from the routes this process registered: api and standalone get the document they serve;
  // a node or an edge the one of their health and metrics routes.
  const document = openApiService(app).document();
  try {
    await checkExchangesAgainstOpenApi(app, document, (violations) => {
      // Synchronous: the line is in the file before the answer leaves, so the test that made it sees it.
      for (const violation of violations) write(file, JSON.stringify({ role, pid: process.pid, ...violation }));
    });
  } catch (error) {
    throw new Error(
      `OPENAPI_VIOLATIONS_FILE (tests only) could not start the exchange check; it needs the dev dependencies openapi-backend and ajv-formats: ${String(error)}`,
    );
  }
}

/** The app's own OpenApiService where it serves the document, else one over its modules (node, edge). */
function openApiService(app: NestFastifyApplication): OpenApiService {
  // Not app.get(OpenApiService): a missing provider there ends a process Nest created (abortOnError).
  const modules = app.get(ModulesContainer);
  for (const module of modules.values()) {
    const instance = module.providers.get(OpenApiService)?.instance;
    if (instance instanceof OpenApiService) return instance;
  }
  return new OpenApiService(modules);
}

/** A file that is gone (the test that named it has ended) must not break the answer. */
function write(file: string, line: string): void {
  try {
    appendFileSync(file, line + '\n');
  } catch (error) {
    process.stderr.write(`OPENAPI_VIOLATIONS_FILE: ${String(error)}; violation: ${line}\n`);
  }
}
