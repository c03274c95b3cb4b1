"""Row builders of the demo catalogue: plain dicts for bulk inserts, drawn from one random.Random."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import random
from dataclasses import dataclass, field

from modhub import seed_data as V

DAY = dt.timedelta(days=1)
HISTORY_DAYS = 35


@dataclass
class Taxonomy:
    """What a post may be filed under, per section: resource types, categories, platforms."""

    types: dict[str, list[str]] = field(default_factory=dict)
    categories: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    platforms: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def build(cls) -> Taxonomy:
        """The per-section choices, derived from the vocabulary."""
        tax = cls()
        top = {code: code for code, _, _ in V.RESOURCE_TYPES}
        parents = {c: p for c, _, p, _ in V.MAIN_CATEGORIES}
        for code, _, _, _, _ in V.SECTIONS:
            tax.types[code] = [t for t, _, s in V.RESOURCE_TYPES if s is None or code in s]
            tax.platforms[code] = [p for p, _, _, s in V.RUN_PLATFORMS if code in s]
        for cat, _, _, section in V.MAIN_CATEGORIES:
            root = cat
            while root not in top:
                root = parents[root]
            for sec in [section] if section else tax.types:
                if root in tax.types.get(sec, []):
                    tax.categories.setdefault((sec, root), []).append(cat)
        return tax


def section_rows() -> list[dict]:
    """Sections (games)."""
    return [
        {
            "code": c,
            "description": zh,
            "english_name": en,
            "sort_order": order,
            "icon": f"icons/sections/{c}.png",
            "server_post_enabled": servers,
        }
        for c, zh, en, order, servers in V.SECTIONS
    ]


def platform_rows() -> list[dict]:
    """Run platforms (mod loaders)."""
    return [
        {"code": c, "name": n, "description": d, "icon": f"icons/platforms/{c}.png", "sort_order": i}
        for i, (c, n, d, _) in enumerate(V.RUN_PLATFORMS)
    ]


def category_rows() -> list[dict]:
    """The category tree: resource types at the top, main categories below them."""
    rows = [
        {
            "code": c,
            "name": n,
            "description": f"{n}：所有{n.split()[0]}",
            "parent_code": None,
            "section_code": s[0] if s and len(s) == 1 else None,  # shaders: Minecraft only
            "icon": f"icons/categories/{c}.png",
            "sort_order": i,
        }
        for i, (c, n, s) in enumerate(V.RESOURCE_TYPES)
    ]
    rows += [
        {
            "code": c,
            "name": n,
            "description": None,
            "parent_code": p,
            "section_code": s,
            "icon": None,
            "sort_order": i,
        }
        for i, (c, n, p, s) in enumerate(V.MAIN_CATEGORIES)
    ]
    return rows


def tag_rows() -> list[dict]:
    """Tags of every section."""
    return [{"section_code": s[0], "name": t} for s in V.SECTIONS for t in V.TAGS]


def user_rows(rng: random.Random, count: int, now: dt.datetime) -> list[dict]:
    """Authors, commenters and raters."""
    return [
        {
            "username": f"seed-{i:06d}",
            "login_name": f"seed-{i:06d}",
            "avatar": f"avatars/{i % 97}.png" if rng.random() < 0.8 else None,
            "bio": rng.choice(V.EN_INTRO),
            "status": "NORMAL",
            "created_at": now - rng.uniform(30, 2000) * DAY,
        }
        for i in range(1, count + 1)
    ]


def _title(rng: random.Random) -> tuple[str, str, str]:
    i, j = rng.randrange(len(V.ZH_PREFIX)), rng.randrange(len(V.ZH_SUFFIX))
    en = f"{V.EN_PREFIX[i]} {V.EN_SUFFIX[j]}"
    zh = V.ZH_PREFIX[i] + V.ZH_SUFFIX[j]
    abbr = "".join(w[0] for w in en.split()).upper() + str(rng.randrange(10, 99))
    return zh, en, abbr


def _status(rng: random.Random) -> dict:
    roll = rng.random()
    if roll < 0.03:
        return {"status": "DRAFT", "visibility": "PUBLIC"}
    if roll < 0.05:
        return {"status": "PENDING", "visibility": "PUBLIC"}
    if roll < 0.08:
        return {"status": "PUBLISHED", "visibility": "PRIVATE"}
    return {"status": "PUBLISHED", "visibility": "PUBLIC"}


def post_row(rng: random.Random, tax: Taxonomy, now: dt.datetime, user_count: int) -> dict:
    """One resource post (counters are filled in later from its parts)."""
    section = rng.choice(V.SECTIONS)[0]
    rtype = rng.choice(tax.types[section])
    cats = tax.categories.get((section, rtype), [])
    platform = rng.choice(tax.platforms[section]) if rng.random() < 0.9 else None
    zh, en, abbr = _title(rng)
    chinese_first = rng.random() < 0.6
    published = now - rng.uniform(1, 900) * DAY
    deleted = rng.random() < 0.02
    paid = rng.random() < 0.05
    client_env = rng.choice(["REQUIRED", "REQUIRED", "OPTIONAL", "NO_NEED", "UNKNOWN"])
    server_env = rng.choice(["REQUIRED", "OPTIONAL", "NO_NEED", "UNKNOWN"])
    versions = V.GAME_VERSIONS[section]
    return {
        **_status(rng),
        "section_code": section,
        "user_id": rng.randint(1, user_count),
        "main_name": zh if chinese_first else en,
        "sub_name": en if chinese_first else zh,
        "introduction": (rng.choice(V.ZH_INTRO) + " " + rng.choice(V.EN_INTRO)),
        "abbr_name": abbr,
        "cover_image": f"covers/{rng.randrange(500)}.jpg",
        "resource_type": rtype,
        "main_categories": rng.sample(cats, k=min(len(cats), rng.randint(1, 3))) if cats else [],
        "run_platform": platform,
        "client_environment": client_env,
        "server_environment": server_env,
        "client_install_path": None if client_env == "NO_NEED" else f"{rtype}s",
        "server_install_path": None if server_env == "NO_NEED" else f"{rtype}s",
        "server_installable": None if rng.random() < 0.2 else server_env != "NO_NEED",
        "resource_version": f"{rng.randint(0, 5)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}",
        "resource_state": rng.choice(["ACTIVE"] * 6 + ["SEMI_ABANDONED", "ABANDONED", "UNKNOWN"]),
        "is_paid": paid,
        "price_amount": rng.choice([6, 12, 30, 68]) if paid else None,
        "price_currency_code": "CNY" if paid else None,
        "content_copyright": "CC BY-NC-SA 4.0",
        "resource_copyright": rng.choice(["MIT", "ARR", "GPL-3.0"]),
        "creation_type": rng.choice(["ORIGINAL", "ORIGINAL", "DERIVATIVE", "TRANSLATION", "IMPORT"]),
        "source_state": rng.choice(["OPEN", "CLOSED", "UNKNOWN"]),
        "display_images": [f"shots/{rng.randrange(900)}.jpg" for _ in range(rng.randint(0, 5))],
        "enable_version_grouping": rng.random() < 0.3,
        "description_md": f"# {en}\n\n{zh}：{rng.choice(V.ZH_INTRO)}\n\n{rng.choice(V.EN_INTRO)}\n",
        "description_html": f"<h1>{en}</h1><p>{zh}：{rng.choice(V.ZH_INTRO)}</p>"
        f"<p>{rng.choice(V.EN_INTRO)}</p>",
        "tags": rng.sample(V.TAGS, k=rng.randint(0, 4)),
        "ref_link": None,
        "post_version": 1,
        "game_versions": rng.sample(versions, k=1),
        "install_script": _install_script(en, rtype, client_env),
        "publish_time": published,
        "update_time": min(now, published + rng.uniform(0, 200) * DAY),
        "is_delete": deleted,
        "delete_time": now - rng.uniform(0, 30) * DAY if deleted else None,
        "views_count": 0,
        "download_count": 0,
        "like_count": 0,
        "collection_count": 0,
        "comment_count": 0,
        "rating_count": 0,
        "rating_total": 0,
    }


def _install_script(name: str, rtype: str, client_env: str) -> str | None:
    """A small JSON install script (signed by install-info) for resources a client installs."""
    if client_env == "NO_NEED":
        return None
    return json.dumps(
        {
            "source": "AUTHOR",
            "summary": f"Copy {name} into {rtype}s/.",
            "steps": [{"action": "copy", "from": "@0", "to": f"{rtype}s/"}],
        },
        ensure_ascii=False,
    )


def demo_content(name: str, size: int) -> bytes:
    """The bytes of a demo file: its name repeated up to size (stored by `seed_cli`)."""
    line = f"modhub demo file {name}\n".encode()
    return (line * (size // len(line) + 1))[:size]


def demo_hashes(content: bytes) -> dict:
    """The sha1, sha256 and sha512 columns of demo bytes."""
    return {
        "sha1": hashlib.sha1(content).hexdigest(),
        "sha256": hashlib.sha256(content).hexdigest(),
        "sha512": hashlib.sha512(content).hexdigest(),
    }


def file_row(rng: random.Random, post: dict, index: int) -> dict:
    """One file of a post: an on-site upload, an external link or a cloud-disk share."""
    storage = rng.choice(["DIRECT_UPLOAD", "DIRECT_UPLOAD", "DIRECT_LINK", "CLOUD_DISK"])
    name = f"{post['abbr_name'].lower()}-{post['resource_version']}-{index}.jar"
    uploaded = storage == "DIRECT_UPLOAD"
    size = rng.randint(1_000, 64_000)
    hashes = demo_hashes(demo_content(name, size)) if uploaded else None
    return {
        "post_id": post["id"],
        "title": f"{post['sub_name']} {post['resource_version']}",
        "file_name": name,
        "file_version": post["resource_version"],
        "resource_versions": post["game_versions"],
        "run_platform": post["run_platform"],
        "environment_side": rng.choice(["BOTH", "BOTH", "CLIENT", "SERVER"]),
        "storage_type": storage,
        "object_key": hashes["sha256"] if uploaded else None,
        "external_url": None if uploaded else f"https://dl.example.org/{post['id']}/{name}",
        "down_info": []
        if uploaded
        else [
            {  # the file's own link (one URL per file), with the share's extraction code
                "type": storage,
                "url": f"https://dl.example.org/{post['id']}/{name}",
                "code": "mh42" if storage == "CLOUD_DISK" else None,
            }
        ],
        "file_size": size if uploaded else None,
        **(hashes or {"sha1": None, "sha256": None, "sha512": None}),
        "file_status": "NORMAL" if rng.random() < 0.95 else "HIDDEN",
        "download_count": rng.randint(0, 5000),
        "sort_order": index,
        "publish_time": post["publish_time"],
        "update_time": post["update_time"],
        "is_delete": rng.random() < 0.03,
    }


def daily_rows(rng: random.Random, post_id: int, today: dt.date, popular: bool) -> list[dict]:
    """Per-day counters: every day of the history for popular posts, a few days for the rest."""
    days = range(HISTORY_DAYS) if popular else sorted(rng.sample(range(HISTORY_DAYS), k=3))
    scale = 40 if popular else 4
    return [
        {
            "post_id": post_id,
            "day": today - k * DAY,
            "views": rng.randint(0, scale * 10),
            "downloads": rng.randint(0, scale * 2),
            "collects": rng.randint(0, scale // 2),
        }
        for k in days
    ]


def comment_text(rng: random.Random) -> str:
    """A comment in Chinese or English (HTML)."""
    return f"<p>{rng.choice(V.ZH_COMMENTS if rng.random() < 0.6 else V.EN_COMMENTS)}</p>"
