"""The public page of a resource, where detailUrl and install-info's postUrl point
(`MODHUB_SITE_URL/resource/{postId}`): its names, introduction, authors and files, read through
the same domain functions as the API (a resource the API hides is a 404 here too)."""

from __future__ import annotations

import flask

from models.catalog import service as catalog
from models.files import listing
from modhub.site.views import bp
from modhub.web import platform, session


@bp.route("/resource/<int:post_id>")
def resource_page(post_id: int):
    """A listed resource's page (404 page otherwise)."""
    display = platform().display
    mod = catalog.get_detail(session(), post_id=post_id, display=display, today=platform().clock().date())
    files = listing.list_files(session(), post_id=post_id, display=display)
    return flask.render_template("resource.html", mod=mod, files=files, zone=display.time_zone)
