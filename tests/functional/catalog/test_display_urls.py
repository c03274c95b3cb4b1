"""Display URLs a UI can load: covers, screenshots, icons and avatars of detail and search
answers are absolute, and with no CDN configured the server serves them itself (/media/...) as
real PNG images."""

from __future__ import annotations

import struct
import zlib

import pytest

from modhub.settings import Settings, finalize
from tests.helpers.catalog import data

DISPLAY_KEYS = ("coverImageUrl", "avatarUrl", "iconUrl", "displayImages", "senderAvatarUrl")


@pytest.fixture()
def settings(settings):
    """No CDN: the display base is the server's public address + /media (as finalize makes it)."""
    return settings.replace(base_url="http://testserver", cdn_base_url="http://testserver/media")


def _display_urls(value) -> list[str]:
    """Every display URL in an answer."""
    found = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key in DISPLAY_KEYS and item:
                found += item if isinstance(item, list) else [item]
            else:
                found += _display_urls(item)
    elif isinstance(value, list):
        for item in value:
            found += _display_urls(item)
    return found


def _is_png(body: bytes) -> bool:
    """A whole PNG: signature, IHDR first, every chunk's CRC right, IEND last."""
    if not body.startswith(b"\x89PNG\r\n\x1a\n"):
        return False
    at, kinds = 8, []
    while at < len(body):
        (length,) = struct.unpack(">I", body[at : at + 4])
        kind, chunk = body[at + 4 : at + 8], body[at + 8 : at + 8 + length]
        if struct.unpack(">I", body[at + 8 + length : at + 12 + length])[0] != zlib.crc32(kind + chunk):
            return False
        kinds.append(kind)
        at += 12 + length
    return kinds[0] == b"IHDR" and kinds[-1] == b"IEND" and b"IDAT" in kinds


def test_every_display_url_is_absolute_and_loads(signed, client, db, make_user):
    from models.identity.tables import User
    from tests.helpers.catalog import Catalogue

    cat = Catalogue(db)
    cat.section(icon="icons/minecraft.png")
    cat.platform(icon="icons/forge.png")
    post = cat.post(cover_image="covers/78.jpg", display_images=["shots/1.jpg", "shots/2.jpg"])
    user = make_user()
    with db.session() as s:
        s.get(User, user).avatar = "avatars/24.png"
        s.commit()
    cat.author(post, user)
    answers = [
        data(signed.get(f"/openapi/v2/mods/{post}")),
        data(signed.get("/openapi/v2/mods/search")),
        data(signed.get("/openapi/v2/games")),
        data(signed.get("/openapi/v2/mod-loaders")),
    ]
    urls = sorted({u for answer in answers for u in _display_urls(answer)})
    assert len(urls) >= 6, urls
    for url in urls:
        assert url.startswith("http://testserver/media/"), url
        image = client.get(url.removeprefix("http://testserver"))
        assert image.status_code == 200 and image.headers["content-type"] == "image/png", url
        assert _is_png(image.content), url
    assert client.get("/media/../etc/passwd").status_code == 404
    assert client.get("/media/covers/78.txt").status_code == 404


def test_detail_url_and_post_url_are_the_resources_page(signed, client, db, settings):
    """detailUrl (and install-info's postUrl) is MODHUB_SITE_URL/resource/{postId}, a page this
    server renders; a resource the API does not list is a 404 page there too."""
    from tests.helpers.catalog import Catalogue

    assert settings.site_url == "https://modhub.example"
    cat = Catalogue(db)
    cat.section()
    post = cat.post(main_name="机械动力 Create page", introduction="齿轮 gears")
    cat.file(post, file_name="create-page.jar")
    detail_url = data(signed.get(f"/openapi/v2/mods/{post}"))["detailUrl"]
    assert detail_url == f"https://modhub.example/resource/{post}"
    assert data(signed.get(f"/openapi/v2/mods/{post}/install-info"))["postUrl"] == detail_url
    page = client.get(detail_url.removeprefix("https://modhub.example"))
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert (
        "机械动力 Create page" in page.text and "create-page.jar" in page.text and "齿轮 gears" in page.text
    )
    assert page.headers["content-security-policy"] == "default-src 'self'; frame-ancestors 'none'"
    hidden = cat.post(status="HIDDEN")
    assert client.get(f"/resource/{hidden}").status_code == 404
    assert client.get("/resource/999999999").status_code == 404


def test_no_cdn_means_the_servers_own_media_path(tmp_path):
    base = Settings(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path}/m.db")
    assert finalize(base).cdn_base_url == ""  # no public address: keys stay as stored
    assert finalize(base.replace(base_url="http://h:1")).cdn_base_url == "http://h:1/media"
    assert (
        finalize(base.replace(base_url="http://h:1", cdn_base_url="https://cdn")).cdn_base_url
        == "https://cdn"
    )
