"""The analyst's web app and HTTP API (``clausegraph serve``; needs the ``web`` extra).

``create_app(index)`` builds the FastAPI app: pages (Ask, Documents, Compare, History),
the JSON API under ``/api/v1`` and its OpenAPI docs at ``/docs``. It is a thin layer over
:class:`clausegraph.api.ClauseGraph`; see ``docs/web.md``.
"""

from clausegraph.web.app import create_app

__all__ = ["create_app"]
