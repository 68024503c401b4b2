import type { ConsoleAccessLevel } from '../../libs/console/src/access';
import { CONSOLE_ACCESS } from '../../libs/console/src/console-access';
import { CONSOLE_AUDITED } from '../../libs/console/src/console-audited';
import { isApiPath, routeHandlers } from '@app/openapi';
import type { ModulesContainer } from '@nestjs/core';

/** One route of the web console, read from Nest's metadata by the API's route scanner (`routeHandlers`). */
export interface ConsoleRoute {
  method: string;
  /** Nest form: `/console/w/:ws/domains/:id/check`. */
  path: string;
  /** Its `@ConsoleAccess(...)` (on the handler, else the controller); undefined: none, and ConsoleGuard refuses it. */
  access: ConsoleAccessLevel | undefined;
  /** `@ConsoleAnonymous()`: served without a session. */
  anonymous: boolean;
  /** Its `@Audited(...)` action. */
  audited: string | undefined;
}

/** Every `/console` route the running app registered, so a new page or form is covered without editing a test. */
export function consoleRoutes(modules: ModulesContainer): ConsoleRoute[] {
  const routes: ConsoleRoute[] = [];
  for (const { controller, handler, method, paths } of routeHandlers(modules)) {
    const access = (Reflect.getMetadata(CONSOLE_ACCESS, handler) ?? Reflect.getMetadata(CONSOLE_ACCESS, controller)) as
      ConsoleAccessLevel | undefined;
    const audited = Reflect.getMetadata(CONSOLE_AUDITED, handler) as string | undefined;
    for (const path of paths.filter((p) => !isApiPath(p))) {
      routes.push({ method, path, access, anonymous: access === 'anonymous', audited });
    }
  }
  return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}
