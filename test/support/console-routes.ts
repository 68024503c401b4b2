import { CONSOLE_ANONYMOUS } from '../../libs/console/src/console-request';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import type { ModulesContainer } from '@nestjs/core';

/** One route of the web console, read from Nest's metadata like the API's route scanner does. */
export interface ConsoleRoute {
  method: string;
  /** Nest form: `/console/w/:ws/domains/:id/check`. */
  path: string;
  /** `@ConsoleAnonymous()`: served without a session. */
  anonymous: boolean;
}

const join = (...parts: (string | undefined)[]) =>
  '/' +
  parts
    .flatMap((p) => (p ?? '').split('/'))
    .filter(Boolean)
    .join('/');

/** Every `/console` route the running app registered, so a new page or form is covered without editing a test. */
export function consoleRoutes(modules: ModulesContainer): ConsoleRoute[] {
  const routes: ConsoleRoute[] = [];
  const seen = new Set<unknown>();
  for (const module of modules.values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!controller || seen.has(controller)) continue;
      seen.add(controller);
      const prefix = Reflect.getMetadata(PATH_METADATA, controller) as string | undefined;
      const proto = controller.prototype as object;
      for (const name of Object.getOwnPropertyNames(proto)) {
        const handler: unknown = Object.getOwnPropertyDescriptor(proto, name)?.value;
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method === undefined) continue;
        const path = join(prefix, Reflect.getMetadata(PATH_METADATA, handler) as string);
        if (!/^\/console(\/|$)/.test(path)) continue;
        const anonymous =
          Reflect.getMetadata(CONSOLE_ANONYMOUS, handler) === true ||
          Reflect.getMetadata(CONSOLE_ANONYMOUS, controller) === true;
        routes.push({ method: RequestMethod[method], path, anonymous });
      }
    }
  }
  return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}
