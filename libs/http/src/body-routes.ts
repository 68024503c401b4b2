import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { ModulesContainer } from '@nestjs/core';

const join = (...parts: string[]) =>
  '/' +
  parts
    .flatMap((part) => part.split('/'))
    .filter(Boolean)
    .join('/');

/** `POST /v1/domains` as Fastify knows the route (`:id` parameters), for `takesBody`. */
export const routeKey = (method: string, url: string): string => `${method.toUpperCase()} ${join(url)}`;

/**
 * The routes whose handler reads a body (`@Body()`), read from Nest's own metadata: the others take
 * none, and a body sent to them is ignored rather than parsed (a junk body cannot fail a request that
 * never reads it).
 */
export function routesTakingBodies(modules: ModulesContainer): Set<string> {
  const keys = new Set<string>();
  for (const module of modules.values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!controller) continue;
      const prefixes = [Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined].flat();
      const proto = controller.prototype as object;
      for (const name of Object.getOwnPropertyNames(proto)) {
        const handler: unknown = Object.getOwnPropertyDescriptor(proto, name)?.value;
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method === undefined || !readsBody(controller, name)) continue;
        const paths = [Reflect.getMetadata(PATH_METADATA, handler) as string | string[]].flat();
        for (const prefix of prefixes) {
          for (const path of paths) keys.add(routeKey(RequestMethod[method], join(prefix ?? '', path ?? '')));
        }
      }
    }
  }
  return keys;
}

function readsBody(controller: object, name: string): boolean {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, unknown>;
  return Object.keys(args).some((key) => Number(key.split(':')[0]) === (RouteParamtypes.BODY as number));
}
