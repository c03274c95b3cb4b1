"""The interactive docs page: Swagger UI with a key + secret form that signs every "Try it out".

Our `index.j2` (no inline script or style) replaces the bundle's; the bundle's files are still
served from its own folder. The signing runs in the browser (site static `docs-sign.js`). The page
carries a strict Content-Security-Policy like the site pages; it differs from theirs only by
allowing `data:` images, which Swagger UI's stylesheet uses for its icons.
"""

from __future__ import annotations

from pathlib import Path

from connexion.middleware.swagger_ui import SwaggerUIAPI, SwaggerUIMiddleware
from starlette.templating import Jinja2Templates

TEMPLATES = Path(__file__).parent

DOCS_CSP = "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'"
"""No inline script or style, no other origin; the docs page may not be framed."""

_HEADERS = {
    "Content-Security-Policy": DOCS_CSP,
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class _SigningDocsAPI(SwaggerUIAPI):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._templates = Jinja2Templates(
            directory=[str(TEMPLATES), str(self.options.swagger_ui_template_dir)]
        )

    async def _get_swagger_ui_home(self, req):
        response = await super()._get_swagger_ui_home(req)
        response.headers.update(_HEADERS)
        return response


class SigningDocsMiddleware(SwaggerUIMiddleware):
    """SwaggerUIMiddleware whose docs page loads the signing form and script.

    Only the paths under the docs page's (`swagger_ui_path`) are its own: any other request goes
    on at once, without the router's copy of the scope and match over the page's routes.
    """

    def __init__(self, app, *, path: str) -> None:
        super().__init__(app)
        self.path = path

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(self.path):
            await self.app(scope, receive, send)
            return
        await super().__call__(scope, receive, send)

    def add_api(self, specification, base_path=None, arguments=None, **kwargs) -> None:
        """Like the parent, with the page template of this package first."""
        api = _SigningDocsAPI(
            specification, base_path=base_path, arguments=arguments, default=self.default_fn, **kwargs
        )
        self.router.mount(api.base_path, app=api.router)
