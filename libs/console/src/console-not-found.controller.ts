import { DomainError } from '@app/kernel';
import { Get } from '@nestjs/common';
import { ConsoleAccess } from './console-access';
import { ConsoleController } from './console-controller';

/**
 * Any other /console address answers the console's HTML error page (with the way back), not the
 * API's JSON 404. Fastify prefers every real route to this wildcard.
 */
@ConsoleController()
export class ConsoleNotFoundController {
  @ConsoleAccess('signed-in')
  @Get('*')
  notFound(): never {
    throw new DomainError(
      'not_found',
      'There is no console page at this address. Check the link, or start again from Workspaces.',
    );
  }
}
