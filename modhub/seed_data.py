"""The fixed vocabulary of the demo catalogue: games, mod loaders, the category tree and words."""

from __future__ import annotations

# (code, Chinese name, English name, sort order, server posts enabled)
SECTIONS = [
    ("minecraft", "我的世界", "Minecraft", 1, True),
    ("terraria", "泰拉瑞亚", "Terraria", 2, True),
    ("stardew", "星露谷物语", "Stardew Valley", 3, False),
    ("rimworld", "环世界", "RimWorld", 4, False),
    ("dst", "饥荒联机版", "Don't Starve Together", 5, True),
    ("skyrim", "上古卷轴5：天际", "The Elder Scrolls V: Skyrim", 6, False),
    ("factorio", "异星工厂", "Factorio", 7, True),
]

# (code, name, description, sections it runs for)
RUN_PLATFORMS = [
    ("forge", "Forge", "Minecraft Forge 模组加载器 / the classic Minecraft mod loader", ("minecraft",)),
    ("fabric", "Fabric", "轻量的 Minecraft 模组加载器 / lightweight Minecraft mod loader", ("minecraft",)),
    ("neoforge", "NeoForge", "Forge 的社区分支 / community fork of Forge", ("minecraft",)),
    ("quilt", "Quilt", "兼容 Fabric 的加载器 / Fabric-compatible loader", ("minecraft",)),
    ("paper", "Paper", "高性能服务端 / high-performance server", ("minecraft",)),
    ("tmodloader", "tModLoader", "泰拉瑞亚模组加载器 / Terraria mod loader", ("terraria",)),
    ("smapi", "SMAPI", "星露谷模组 API / Stardew Modding API", ("stardew",)),
    ("harmony", "Harmony", "环世界运行时补丁库 / runtime patching for RimWorld", ("rimworld",)),
    ("skse", "SKSE", "天际脚本扩展 / Skyrim Script Extender", ("skyrim",)),
    ("vanilla", "原版 Vanilla", "无需加载器 / no loader needed",
     ("dst", "factorio", "terraria", "stardew", "rimworld", "skyrim", "minecraft")),
]

# Resource types (top level, every section unless listed): (code, name, sections or None)
RESOURCE_TYPES = [
    ("mod", "模组 Mods", None),
    ("modpack", "整合包 Modpacks", ("minecraft", "terraria", "rimworld", "skyrim")),
    ("map", "地图 Maps", ("minecraft", "terraria", "factorio", "dst")),
    ("resourcepack", "资源包 Resource packs", ("minecraft", "terraria", "stardew")),
    ("shader", "光影 Shaders", ("minecraft",)),
    ("datapack", "数据包 Data packs", ("minecraft",)),
    ("save", "存档 Save games", ("stardew", "rimworld", "skyrim", "dst")),
]

# Main categories: (code, name, parent code, section or None); a parent may itself be a category.
MAIN_CATEGORIES = [
    ("mod-tech", "科技 Technology", "mod", None),
    ("mod-tech-energy", "能源 Energy", "mod-tech", None),
    ("mod-tech-automation", "自动化 Automation", "mod-tech", None),
    ("mod-magic", "魔法 Magic", "mod", None),
    ("mod-adventure", "冒险 Adventure", "mod", None),
    ("mod-decoration", "装饰 Decoration", "mod", None),
    ("mod-utility", "实用 Utility", "mod", None),
    ("mod-library", "前置库 Library", "mod", None),
    ("mod-performance", "优化 Performance", "mod", None),
    ("mod-worldgen", "世界生成 World generation", "mod", "minecraft"),
    ("mod-boss", "Boss 战 Bosses", "mod", "terraria"),
    ("mod-farming", "农业 Farming", "mod", "stardew"),
    ("mod-colony", "殖民地管理 Colony management", "mod", "rimworld"),
    ("mod-quest", "任务 Quests", "mod", "skyrim"),
    ("modpack-tech", "科技整合 Tech packs", "modpack", None),
    ("modpack-rpg", "冒险 RPG", "modpack", None),
    ("modpack-light", "轻量 Lightweight", "modpack", None),
    ("map-adventure", "冒险地图 Adventure", "map", None),
    ("map-parkour", "跑酷 Parkour", "map", "minecraft"),
    ("map-survival", "生存 Survival", "map", None),
    ("resourcepack-realistic", "写实 Realistic", "resourcepack", None),
    ("resourcepack-cartoon", "卡通 Cartoon", "resourcepack", None),
    ("shader-realistic", "写实光影 Realistic", "shader", None),
    ("shader-performance", "流畅光影 Fast", "shader", None),
    ("datapack-gameplay", "玩法 Gameplay", "datapack", None),
    ("save-challenge", "挑战 Challenge", "save", None),
    ("save-showcase", "展示 Showcase", "save", None),
]

TAGS = ["多人", "单人", "中文", "English", "硬核", "休闲", "原创", "搬运", "汉化", "联机",
        "QoL", "Multiplayer", "Hardcore", "Casual", "Chinese", "Translated"]

ZH_PREFIX = ["超级", "无尽", "机械", "星辰", "深渊", "远古", "幻想", "极致", "简易", "暮色",
             "精灵", "钢铁", "末影", "森林", "雪原", "炽热", "量子", "灵魂", "天空", "矿工"]
ZH_SUFFIX = ["工艺", "冒险", "魔法", "扩展", "之旅", "世界", "生物群系", "自动化", "装饰",
             "背包", "农场", "地牢", "光影", "材质", "优化", "传说", "武器库", "建筑", "科技", "生存"]
EN_PREFIX = ["Super", "Endless", "Mechanical", "Stellar", "Abyssal", "Ancient", "Fantasy",
             "Ultimate", "Simple", "Twilight", "Elven", "Iron", "Ender", "Forest", "Frozen",
             "Blazing", "Quantum", "Soul", "Sky", "Miner's"]
EN_SUFFIX = ["Craft", "Adventures", "Magic", "Expansion", "Journey", "Worlds", "Biomes",
             "Automation", "Decor", "Backpacks", "Farming", "Dungeons", "Shaders", "Textures",
             "Optimizer", "Legends", "Armory", "Builder", "Tech", "Survival"]
ZH_INTRO = ["为游戏加入了全新的内容与玩法。", "让你的旅程更加丰富多彩。", "兼容大多数主流模组。",
            "适合与朋友一起联机游玩。", "大幅提升游戏性能与帧数。", "带来焕然一新的视觉体验。"]
EN_INTRO = ["Adds a wealth of new content and mechanics.", "Makes your journey richer.",
            "Compatible with most popular mods.", "Great fun in multiplayer with friends.",
            "Boosts performance and frame rate.", "A fresh new look for the whole game."]
ZH_COMMENTS = ["太好用了，感谢作者！", "请问支持最新版本吗？", "和某某模组冲突，求修复。",
               "汉化很到位。", "服务器装了之后很稳定。", "期待下次更新！"]
EN_COMMENTS = ["Works great, thanks!", "Does this support the latest version?",
               "Crashes with another mod, please fix.", "Love the new textures.",
               "Runs smoothly on our server.", "Can't wait for the next update!"]
NICKNAMES = ["Steve", "Alex", "小明", "阿狸", "CraftMaster", "像素猫", "RedstoneGuru", "月光",
             "Notchling", "白菜", "Builder", "咕咕", "Creeper", "星河", "Modder", "青柠"]
LINK_TYPES = ["HOMEPAGE", "SOURCE", "WIKI", "DISCORD", "ISSUE_TRACKER"]
RELATION_TYPES = ["DEPENDENCY", "DEPENDENCY", "INCOMPATIBLE", "RECOMMENDATION", "EMBEDDED"]
GAME_VERSIONS = {
    "minecraft": ["1.12.2", "1.16.5", "1.18.2", "1.19.2", "1.20.1", "1.20.4", "1.21"],
    "terraria": ["1.4.3", "1.4.4"], "stardew": ["1.5.6", "1.6"], "rimworld": ["1.4", "1.5"],
    "dst": ["2024"], "skyrim": ["SE 1.6", "AE"], "factorio": ["1.1", "2.0"],
}
SERVER_STATUSES = ["ONLINE", "ONLINE", "ONLINE", "OFFLINE", "UNKNOWN"]
