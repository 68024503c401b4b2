/** The reference page: Swagger UI (served from our own origin, no CDN) reading /openapi.json. */
export const DOCS_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>API reference: custom domains and domain registration</title>
    <link rel="stylesheet" href="/docs/swagger-ui.css" />
  </head>
  <body>
    <div id="reference"></div>
    <script src="/docs/swagger-ui-bundle.js"></script>
    <script>
      window.addEventListener('load', function () {
        window.SwaggerUIBundle({ url: '/openapi.json', dom_id: '#reference', deepLinking: true });
      });
    </script>
  </body>
</html>
`;
