/**
 * @module The files of the interactive API docs page (`/docs`): Swagger UI's browser bundle and
 * stylesheet from the installed `swagger-ui-dist` package, read once at start-up, so the page
 * needs nothing from the network but this server.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

export interface DocsAsset {
  body: Buffer | string;
  contentType: string;
}

const swaggerUiFiles: Record<string, string> = {
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui.css": "text/css; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

/** Starts Swagger UI on the served document; no validator badge, which would call a remote service. */
const initScript = `window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  validatorUrl: null,
  tryItOutEnabled: false,
  displayOperationId: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
`;

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Quiver API</title>
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/docs-init.js"></script>
</body>
</html>
`;

export interface DocsAssets {
  page: DocsAsset;
  files: ReadonlyMap<string, DocsAsset>;
}

/** Read at the first start-up of the process: the installed files do not change while it serves them. */
let loaded: DocsAssets | undefined;

export function loadDocsAssets(): DocsAssets {
  if (loaded) return loaded;
  const folder = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  const files = new Map<string, DocsAsset>();
  for (const [name, contentType] of Object.entries(swaggerUiFiles)) files.set(name, { body: readFileSync(path.join(folder, name)), contentType });
  files.set("docs-init.js", { body: initScript, contentType: "text/javascript; charset=utf-8" });
  loaded = { page: { body: page, contentType: "text/html; charset=utf-8" }, files };
  return loaded;
}
