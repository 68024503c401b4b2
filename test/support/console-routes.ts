import { CONSOLE_ANONYMOUS } from '../../libs/console/src/console-request';
import { isApiPath, routeHandlers } from '@app/openapi';
import type { ModulesContainer } from '@nestjs/core';

/** One route of the web console, read from Nest's metadata by the API's route scanner (`routeHandlers`). */
export interface ConsoleRoute {
  method: string;
  /** Nest form: `/console/w/:ws/domains/:id/check`. */
  path: string;
  /** `@ConsoleAnonymous()`: served without a session. */
  anonymous: boolean;
}

/** Every `/console` route the running app registered, so a new page or form is covered without editing a test. */
export function consoleRoutes(modules: ModulesContainer): ConsoleRoute[] {
  const routes: ConsoleRoute[] = [];
  for (const { controller, handler, method, paths } of routeHandlers(modules)) {
    const anonymous =
      Reflect.getMetadata(CONSOLE_ANONYMOUS, handler) === true ||
      Reflect.getMetadata(CONSOLE_ANONYMOUS, controller) === true;
    for (const path of paths.filter((p) => !isApiPath(p))) routes.push({ method, path, anonymous });
  }
  return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}
