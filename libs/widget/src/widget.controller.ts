import { Public } from '@app/auth';
import { ConnectSessions } from '@app/connect-sessions';
import { DomainError } from '@app/kernel';
import { WorkspaceRepository } from '@app/workspaces';
import { Controller, Get, Header, Query } from '@nestjs/common';
import { ConnectLink, connectPage } from './connect-page';
import { widgetDemoPage } from './widget-demo.page';
import { WIDGET_JS } from './widget.script';

@Controller()
@Public()
export class WidgetController {
  constructor(
    private readonly sessions: ConnectSessions,
    private readonly workspaces: WorkspaceRepository,
  ) {}

  @Get('widget.js')
  @Header('content-type', 'application/javascript; charset=utf-8')
  @Header('cache-control', 'public, max-age=300')
  @Header('x-content-type-options', 'nosniff')
  script(): string {
    return WIDGET_JS;
  }

  @Get('widget/demo')
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('cache-control', 'no-store')
  @Header('referrer-policy', 'no-referrer')
  demo(@Query('token') token?: string | string[]): string {
    if (Array.isArray(token))
      throw new DomainError('bad_request', 'token: send one connect-session token', { field: 'token' });
    return widgetDemoPage(token);
  }

  /** The end customer's page behind a connect link: the widget, for the SaaS that sent it. */
  @Get('connect')
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('cache-control', 'no-store')
  @Header('referrer-policy', 'no-referrer')
  async connect(@Query('token') token?: string | string[]): Promise<string> {
    if (Array.isArray(token))
      throw new DomainError('bad_request', 'token: send one connect-session token', { field: 'token' });
    return connectPage(await this.link(token));
  }

  private async link(token: string | undefined): Promise<ConnectLink> {
    const claims = token ? this.sessions.claims(token) : undefined;
    if (!token || !claims) return { valid: false };
    const workspace = await this.workspaces.get(claims.workspaceId).catch(() => undefined);
    return workspace ? { valid: true, token, saasName: workspace.name } : { valid: false };
  }
}
