import { AUTH_KIND, AuthKind, CONNECT_SESSION_ALLOWED, SCOPE_RESOURCE, ScopeResource } from '@app/auth';
import { IDEMPOTENT } from '@app/limits';
import { RequestMethod } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { ModulesContainer } from '@nestjs/core';

type Class = abstract new (...args: never[]) => unknown;

/** One HTTP route of the running app, with what our decorators say about it. */
export interface RouteInfo {
  method: string;
  /** OpenAPI form: `/v1/domains/{id}`. */
  path: string;
  operationId: string;
  status: number;
  auth: AuthKind;
  scopeResource?: ScopeResource;
  connectSession: boolean;
  idempotent: boolean;
  pathParams: string[];
  body?: Class;
  query?: Class;
}

const join = (...parts: string[]) =>
  '/' +
  parts
    .flatMap((p) => p.split('/'))
    .filter(Boolean)
    .join('/');

/** The web console (`/console`) serves HTML pages to people signed in there: not part of the API or its document. */
export const isApiPath = (path: string): boolean => !/^\/console(\/|$)/.test(path);

/** One handler of a registered controller with an HTTP method, at each of its paths (Nest form: `/a/:id`). */
export interface RouteHandler {
  controller: new (...args: never[]) => object;
  proto: object;
  name: string;
  handler: object;
  method: string;
  paths: string[];
}

/** Every route handler of every controller the app registered (each controller once), from Nest's metadata. */
export function* routeHandlers(modules: ModulesContainer): Generator<RouteHandler> {
  const seen = new Set<unknown>();
  for (const module of modules.values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!controller || seen.has(controller)) continue;
      seen.add(controller);
      const prefixes = [Reflect.getMetadata(PATH_METADATA, controller) as string | string[]].flat();
      const proto = controller.prototype as object;
      for (const name of Object.getOwnPropertyNames(proto)) {
        // The descriptor's value, not proto[name]: reading a getter would run it on the prototype.
        const handler: unknown = Object.getOwnPropertyDescriptor(proto, name)?.value;
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const requestMethod = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (requestMethod === undefined) continue;
        const own = Reflect.getMetadata(PATH_METADATA, handler) as string;
        const paths = prefixes.map((prefix) => join(prefix ?? '', own));
        yield { controller, proto, name, handler, method: RequestMethod[requestMethod], paths };
      }
    }
  }
}

/** Every API route of every controller the app registered, read from Nest's own metadata (no extra decorators). */
export function scanRoutes(modules: ModulesContainer): RouteInfo[] {
  const routes: RouteInfo[] = [];
  for (const route of routeHandlers(modules)) routes.push(...apiRoutes(route));
  return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

function apiRoutes({ controller, proto, name, handler, method, paths }: RouteHandler): RouteInfo[] {
  const args = argTypes(controller, proto, name);
  const meta = <T>(key: string): T | undefined =>
    (Reflect.getMetadata(key, handler) as T | undefined) ?? (Reflect.getMetadata(key, controller) as T | undefined);
  return paths.filter(isApiPath).map((nestPath) => {
    const path = nestPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    return {
      method,
      path,
      operationId: `${controller.name.replace(/Controller$/, '')}_${name}`,
      status: meta<number>(HTTP_CODE_METADATA) ?? (method === 'POST' ? 201 : 200),
      auth: meta<AuthKind>(AUTH_KIND) ?? 'workspace',
      scopeResource: meta<ScopeResource>(SCOPE_RESOURCE),
      connectSession: meta<boolean>(CONNECT_SESSION_ALLOWED) === true,
      idempotent: Reflect.getMetadata(IDEMPOTENT, handler) === true,
      pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]),
      body: args.get(RouteParamtypes.BODY),
      query: args.get(RouteParamtypes.QUERY),
    };
  });
}

/** The DTO class behind `@Body()` and `@Query()` of a handler (from emitted design types). */
function argTypes(controller: object, proto: object, name: string): Map<RouteParamtypes, Class> {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<
    string,
    { index: number; data?: unknown }
  >;
  const types = (Reflect.getMetadata('design:paramtypes', proto, name) ?? []) as Class[];
  const found = new Map<RouteParamtypes, Class>();
  for (const [key, arg] of Object.entries(args)) {
    const kind = Number(key.split(':')[0]) as RouteParamtypes;
    const type = types[arg.index];
    const isDto = typeof type === 'function' && ![Object, String, Number, Boolean, Array].includes(type as never);
    if ((kind === RouteParamtypes.BODY || kind === RouteParamtypes.QUERY) && arg.data === undefined && isDto) {
      found.set(kind, type);
    }
  }
  return found;
}
