import { OpenApiService, checkExchangesAgainstOpenApi, describeViolation } from '@app/openapi';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Every HTTP exchange a test file makes, checked against the OpenAPI document (the checker is
 * libs/openapi/src/exchange-check.ts): of in-process apps through a Fastify hook, and of the dist
 * processes it spawns through OPENAPI_VIOLATIONS_FILE (a file per test file that those processes
 * append violations to). The jest setup file (openapi-jest-setup.ts) fails the test that made one.
 */

const violations: string[] = [];
let checked = 0;

/** Violations since the last call, of in-process apps and spawned processes (and forgets them). */
export function takeOpenApiViolations(): string[] {
  return [...violations.splice(0), ...readProcessViolations()];
}

/** How many exchanges of in-process apps were checked in this test file so far. */
export const checkedExchanges = (): number => checked;

/** Registers the check on the app's Fastify instance; call before `app.init()`. */
export async function validateExchangesAgainstOpenApi(app: NestFastifyApplication): Promise<void> {
  let document: Record<string, unknown>;
  try {
    document = app.get(OpenApiService, { strict: false }).document();
  } catch {
    return; // an app without the document (a bare module under test): nothing to check
  }
  await checkExchangesAgainstOpenApi(app, document, (found) => {
    checked++;
    violations.push(...found.map(describeViolation));
  });
}

let processFile: { dir: string; path: string; offset: number } | undefined;

/**
 * The environment that makes a spawned api/standalone/node/edge process check its exchanges: one
 * file per test file (jest loads this module once per file), read after each test.
 */
export function openApiProcessEnv(): Record<string, string> {
  if (!processFile) {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-violations-'));
    processFile = { dir, path: join(dir, 'violations.jsonl'), offset: 0 };
  }
  return { OPENAPI_VIOLATIONS_FILE: processFile.path };
}

/** Lines the processes appended since the last read, as `[role pid] METHOD path -> status: problem`. */
function readProcessViolations(): string[] {
  if (!processFile) return [];
  let size: number;
  try {
    size = statSync(processFile.path).size;
  } catch {
    return []; // no process has written a violation
  }
  if (size <= processFile.offset) return [];
  const buffer = Buffer.alloc(size - processFile.offset);
  const fd = openSync(processFile.path, 'r');
  try {
    readSync(fd, buffer, 0, buffer.length, processFile.offset);
  } finally {
    closeSync(fd);
  }
  // A process may be mid-line: take whole lines only, the rest at the next read.
  const text = buffer.toString('utf8');
  const complete = text.slice(0, text.lastIndexOf('\n') + 1);
  processFile.offset += Buffer.byteLength(complete);
  return complete
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      try {
        const v = JSON.parse(line) as Parameters<typeof describeViolation>[0] & { role: string; pid: number };
        return `[${v.role} process ${v.pid}] ${describeViolation(v)}`;
      } catch {
        return `[a process] ${line}`;
      }
    });
}

/** Removes the file (after the test file, when its processes are stopped). */
export function removeOpenApiProcessFile(): void {
  if (processFile) rmSync(processFile.dir, { recursive: true, force: true });
  processFile = undefined;
}
