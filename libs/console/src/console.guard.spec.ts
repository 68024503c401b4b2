import { Controller, Get } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { ConsoleAccess } from './console-access';
import { ConsoleGuard } from './console.guard';

@Controller('console')
class Pages {
  @Get('forgotten')
  forgotten() {
    return 'a page that declares nothing';
  }

  @ConsoleAccess('anonymous')
  @Get('open')
  open() {
    return 'a page anyone may see';
  }
}

/** The guard's first decision needs no session: a route's declaration, or its absence. */
function contextOf(handler: () => unknown) {
  const request = { method: 'GET', url: '/console/x', headers: {} };
  const context = new ExecutionContextHost([request, {}]);
  context.setType('http');
  Object.assign(context, { getHandler: () => handler, getClass: () => Pages });
  return context;
}

describe('ConsoleGuard', () => {
  // Sessions, users and workspaces are not reached by these two decisions.
  const guard = new ConsoleGuard(
    new Reflector(),
    undefined as never,
    undefined as never,
    undefined as never,
    undefined as never,
  );

  it('refuses a console route that declares no access, before looking at any session', async () => {
    await expect(guard.canActivate(contextOf(Pages.prototype.forgotten))).rejects.toMatchObject({
      code: 'forbidden',
      message: expect.stringContaining('declares no access rule'),
    });
  });

  it('lets an anonymous route through without a session', async () => {
    await expect(guard.canActivate(contextOf(Pages.prototype.open))).resolves.toBe(true);
  });
});
