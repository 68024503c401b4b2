import { escapeHtml } from '@app/kernel';

/** GET /widget/demo: mounts the widget with ?token= and shows a SaaS how to embed it. */
export function widgetDemoPage(rawToken: string | undefined): string {
  // Only token-shaped values are put into the page (no markup can ride along).
  const token = rawToken && /^cs_[A-Za-z0-9._-]{1,2048}$/.test(rawToken) ? rawToken : undefined;
  const mount = token
    ? `<div id="connect"></div>
    <script>CustomDomainWidget.mount(document.getElementById('connect'), { token: '${token}' });</script>`
    : rawToken
      ? `<p class="note" role="alert">The token in this page's address is not a connect-session token (those start
    with <code>cs_</code>). Ask for a new link.</p>`
      : `<p class="note">Add <code>?token=cs_...</code> to this page's address to see the widget for a domain.
    Mint the token on your server: <code>POST /v1/domains/{id}/connect-session</code> with your API key.</p>`;
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Connect widget demo</title>
  <style>
    body { font: 15px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2933; background: #f5f7fa; margin: 0; }
    main { max-width: 800px; margin: 0 auto; padding: 32px 20px 64px; }
    h1 { font-size: 22px; margin: 0 0 4px; }
    pre { background: #102a43; color: #f0f4f8; padding: 14px 16px; border-radius: 10px; overflow-x: auto; font-size: 13px; }
    .note { background: #fff8e1; border: 1px solid #f7d070; padding: 12px 14px; border-radius: 10px; }
    section { margin-top: 28px; }
  </style>
  <script src="/widget.js"></script>
</head>
<body>
<main>
  <h1>Connect your domain</h1>
  <p>This is what your customer sees: the records to add, steps for their DNS provider, one-click
  Domain Connect where supported, and a live status.</p>
  ${mount}
  <section>
    <h2>Embed it</h2>
    <ol>
      <li>On your server, mint a short-lived token for the customer's domain (your API key never reaches the browser):
        <pre>curl -X POST ${escapeHtml('https://<api>/v1/domains/<id>/connect-session')} \\
  -H 'authorization: Bearer sk_live_...' \\
  -H 'content-type: application/json' -d '{"ttlSeconds": 3600}'</pre></li>
      <li>Put the script and one call on your page:
        <pre>${escapeHtml(`<div id="connect"></div>
<script src="https://<api>/widget.js"></script>
<script>
  CustomDomainWidget.mount(document.getElementById('connect'), {
    token: 'cs_...',                 // the connect-session token
    // apiBase: 'https://<api>',     // default: where widget.js came from
    // redirectUri: location.href,   // where Domain Connect returns the customer
    // onStatusChange: (domain) => console.log(domain.monitorStatus),
  });
</script>`)}</pre></li>
    </ol>
    <p>The token can only read this one domain, read its instructions, check it and apply its records;
    it expires on its own.</p>
  </section>
</main>
</body>
</html>
`;
}
