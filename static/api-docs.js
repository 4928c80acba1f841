// So Clover! table: starts Swagger UI on /docs (app/web/api_docs.py). A file of its
// own because the CSP allows no inline script; the page says where the schema is.
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  const root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.dataset.openapiUrl,
    dom_id: "#swagger-ui",
    // what FastAPI's own /docs sets
    layout: "BaseLayout",
    deepLinking: true,
    showExtensions: true,
    showCommonExtensions: true,
    presets: [SwaggerUIBundle.presets.apis],
    // no badge asking validator.swagger.io about our schema: nothing leaves the table
    validatorUrl: null,
  });
});
