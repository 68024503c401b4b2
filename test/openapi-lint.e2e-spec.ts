import { TestApp, startTestApp } from '@test/support';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');

type Json = Record<string, any>;

interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer?: string }[];
}

/** Redocly's own CLI (an external linter nobody here wrote) on the document a running app serves. */
async function redoclyLint(file: string): Promise<Problem[]> {
  const bin = join(ROOT, 'node_modules/.bin/redocly');
  const args = ['lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format', 'json'];
  // Exit code 1 on errors: the JSON on stdout is still the answer.
  const { stdout } = await run(bin, args, { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }).catch((error) => error);
  return (JSON.parse(stdout.slice(stdout.indexOf('{'))) as { problems: Problem[] }).problems;
}

describe('OpenAPI document under Redocly lint (recommended rules, redocly.yaml)', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await startTestApp({});
    dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
  });
  const document = async (): Promise<Json> => (await request(t.server).get('/openapi.json').expect(200)).body;
  afterAll(async () => {
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('has no errors and no warnings beyond the ones redocly.yaml keeps', async () => {
    const doc = await document();
    const file = join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(doc, null, 2));
    if (process.env.OPENAPI_DUMP) await writeFile(process.env.OPENAPI_DUMP, JSON.stringify(doc, null, 2));
    const problems = (await redoclyLint(file)).map(
      (p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`,
    );
    expect(problems).toEqual([]);
  });

  it('describes what the server accepts and answers', async () => {
    const doc = await document();
    const schemas = doc.components.schemas;
    const body = (path: string, method: string) => doc.paths[path][method].requestBody;
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(doc.paths['/v1/events/{id}'].get.responses['200'].content['application/json'].schema).toMatchObject({
      properties: { event: { $ref: '#/components/schemas/Event' } },
    });
    // PATCH: hostname is immutable (not a property at all), projectId null detaches.
    expect(schemas.UpdateDomainDto.required).toBeUndefined();
    expect(schemas.UpdateDomainDto.properties.hostname).toBeUndefined();
    expect(schemas.UpdateDomainDto.additionalProperties).toBe(false);
    expect(schemas.UpdateDomainDto.properties.projectId.nullable).toBe(true);
    // SPEC 2.7: priority on MX only.
    expect(schemas.RegistrarDnsRecordDto.required).toEqual(['type', 'name', 'value']);
    expect(body('/v1/domains/{id}/connect-session', 'post').required).toBe(false);
    expect(body('/v1/events/{id}/replay', 'post').required).toBe(false);
    expect(body('/v1/domains', 'post').required).toBe(true);
    expect(schemas.BulkCreateDomainsDto.properties.domains.items).toEqual({
      $ref: '#/components/schemas/CreateDomainDto',
    });
    expect(JSON.stringify(doc)).not.toContain('"null"');
    expect(doc.paths['/v1/workspace'].get.security).toEqual([{ bearer: [] }, { oauth2: [] }]);
    // Rate-limit headers on every answer of a /v1 route; OAuth's caching and challenge headers.
    expect(Object.keys(doc.paths['/v1/domains'].post.responses['400'].headers)).toContain('x-ratelimit-remaining');
    const token = doc.paths['/oauth/token'].post;
    expect(Object.keys(token.responses['200'].headers)).toEqual(expect.arrayContaining(['cache-control', 'pragma']));
    expect(Object.keys(token.responses['401'].headers)).toContain('www-authenticate');
    expect(Object.keys(token.requestBody.content)).toEqual(['application/x-www-form-urlencoded', 'application/json']);
  });
});
