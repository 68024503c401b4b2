import { escapeHtml } from '@app/kernel';

/** What the link the end customer opens is: valid (with the SaaS's workspace name), or not usable. */
export type ConnectLink = { valid: true; token: string; saasName: string } | { valid: false };

/**
 * GET /connect: the page a SaaS's end customer opens from a connect link. The widget and whom it is
 * for, nothing for developers (no embed code, no API keys): the developers' page is /widget/demo.
 */
export function connectPage(link: ConnectLink): string {
  const heading = link.valid ? `Connect your domain to ${escapeHtml(link.saasName)}` : 'Connect your domain';
  const body = link.valid
    ? `<p class="lead">Below: what your domain's DNS needs, if anything. This page checks it and tells you when your
    site is live.</p>
  <div id="connect"></div>
  <script>CustomDomainWidget.mount(document.getElementById('connect'), { token: '${link.token}' });</script>`
    : `<p class="note" role="alert">This link is not valid or has expired. Ask for a new link where you got this one.</p>`;
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="robots" content="noindex">
  <title>${heading}</title>
  <style>
    body { font: 15px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2933; background: #f5f7fa; margin: 0; }
    main { max-width: 800px; margin: 0 auto; padding: 32px 16px 64px; }
    h1 { font-size: 22px; margin: 0 0 4px; }
    .lead { color: #52606d; margin: 0 0 18px; }
    .note { background: #fff8e1; border: 1px solid #f7d070; padding: 12px 14px; border-radius: 10px; }
  </style>
  ${link.valid ? '<script src="/widget.js"></script>' : ''}
</head>
<body>
<main>
  <h1>${heading}</h1>
  ${body}
</main>
</body>
</html>`;
}
