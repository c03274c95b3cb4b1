"""Parts of the demo community (modhub.seed_community): its texts (sections, topics, questions,
moments, answers, comments, replies, messages and tags, in Chinese and English) and the rows it
writes together at the end."""

from __future__ import annotations

from models.community.tables import CommunityPost
from modhub.seed_bulk import BulkWriter

SECTIONS = ["minecraft", "terraria", "stardew", "skyrim", "factorio"]
TOPICS_ZH = ["整合包推荐", "红石电路教程", "服务器开服经验", "模组冲突排查", "光影设置分享", "新手入门指南"]
TOPICS_EN = [
    "Modpack picks",
    "Redstone tutorial",
    "Running a server",
    "Fixing mod conflicts",
    "Shader settings",
    "Beginner guide",
]
QUESTIONS = [
    ("Forge 启动崩溃怎么办?", "Forge crashes on launch"),
    ("如何安装光影?", "How to install shaders"),
    ("存档损坏能恢复吗?", "Can a broken save be recovered"),
    ("模组版本不兼容", "Mod version mismatch"),
]
MOMENTS = [
    "今天通关了! Finally beat the boss",
    "新存档开荒中",
    "Look at my base",
    "第一次打败末影龙 🐉",
    "Built a fully automatic iron farm today",
    "光影开了之后帧数掉到 20 了…",
    "服务器今晚八点开新档, 欢迎来玩",
    "Trying the new Create update, the trains are amazing",
    "整合包终于调好了, 模组冲突全部解决",
    "Screenshot of my Terraria boss arena",
]
ANSWERS = [
    "试试更新 Forge 到最新版本, 然后删除 config 文件夹重新生成。\n\nTry updating Forge first.",
    "看一下 `logs/latest.log` 里的报错, 一般是某个模组版本不对。",
    "You need Java 17 for 1.18+; check the launcher's Java path.",
    "安装 OptiFine 或 Iris 之后把光影包放进 shaderpacks 文件夹即可。",
    "Back up the world folder, then run the region fixer on the broken chunks.",
    "两个模组都改了同一个类, 去掉其中一个就好了 / remove one of the two conflicting mods.",
]
COMMENTS = [
    "写得好!",
    "Thanks, very helpful",
    "收藏了, 回头试试",
    "Does this work on 1.20?",
    "我也遇到了同样的问题",
    "Great guide, the screenshots help a lot",
    "顶一下",
    "+1, same here",
]
REPLIES = ["可以的, 我在 1.20.1 上测试过", "Glad it helped!", "试试先删掉 config", "谢谢!"]
MESSAGES = [
    "你好, hello!",
    "你的整合包能分享一下吗?",
    "Want to join our server tonight?",
    "谢谢你的回答, 问题解决了",
    "Can I use your texture pack in my modpack?",
]
TAGS = ["forge", "fabric", "光影", "存档", "服务器", "红石", "整合包", "教程", "tutorial", "performance"]


class PendingRows:
    """Rows built with reserved ids, written together at the end (counters final by then)."""

    def __init__(self, bulk: BulkWriter):
        self.bulk = bulk
        self.batches: list[tuple[type, list[dict]]] = []
        self.by_id: dict[int, dict] = {}  # community posts, for their counters

    def add(self, model, rows: list[dict]) -> list[int]:
        ids = self.bulk.with_ids(model, rows) if "id" in model.__table__.c else []
        self.batches.append((model, rows))
        if model is CommunityPost:
            self.by_id.update(zip(ids, rows, strict=True))
        return ids

    def update(self, changes: list[dict]) -> None:
        """Set counters of community posts (by id) before they are written."""
        for values in changes:
            self.by_id[values["id"]].update(values)

    def flush(self) -> None:
        for model, rows in self.batches:
            self.bulk.write(model, rows)
