import { Public } from '@app/auth';
import { DomainError } from '@app/kernel';
import { Controller, Get, Header, Query } from '@nestjs/common';
import { widgetDemoPage } from './widget-demo.page';
import { WIDGET_JS } from './widget.script';

@Controller()
@Public()
export class WidgetController {
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
}
