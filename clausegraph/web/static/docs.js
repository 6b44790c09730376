"use strict";
document.addEventListener("DOMContentLoaded", () => {
  // eslint-disable-next-line no-undef
  SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger", deepLinking: true });
});
