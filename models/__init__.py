"""SQLAlchemy 2.0 typed models and the domain functions that read and change them.

One package per domain (catalog, identity, search, webhooks, files, community, console, ...):
tables.py holds its mapped classes, records.py its VO builders, service.py its reads and changes;
base.py and types.py are shared by all; every mapped class is re-exported here (Alembic).
"""

from models.authoring.tables import DraftFile, ResourceDraft, ReviewDecision
from models.base import Base
from models.catalog.tables import (
    Category,
    DailyStat,
    Rating,
    ResourceAuthor,
    ResourceFile,
    ResourceLink,
    ResourcePost,
    ResourceRelation,
    ResourceVersion,
    RunPlatform,
    Section,
    ServerPost,
    Tag,
)
from models.community.tables import (
    Answer,
    Comment,
    CommunityPost,
    CommunityProfile,
    Follow,
    Moment,
    Notification,
    PrivateMessage,
    Reaction,
    UserBlock,
)
from models.console.tables import AdminAudit, ConsoleApp, SiteRole
from models.downloads.tables import (
    Entitlement,
    FailureReporter,
    Feedback,
    InstallSigningKey,
    StartupCommandReport,
)
from models.identity.tables import (
    Application,
    AuthCode,
    CarouselPlacement,
    IdempotencyKey,
    PairingCode,
    ProviderAccount,
    ProviderCollect,
    ProxyToken,
    SsoTicket,
    User,
    UserBinding,
    Wallet,
    WalletLedger,
)
from models.lobby.tables import LobbyBlob, LobbyPost, LobbyResource
from models.record_cache import CatalogGeneration
from models.webhooks.tables import OutboxEvent, WebhookAttempt, WebhookDelivery, WebhookSubscription

__all__ = [
    "Base",
    "Application",
    "ProxyToken",
    "User",
    "ResourcePost",
    "ServerPost",
    "Comment",
    "DailyStat",
    "Rating",
    "ResourceAuthor",
    "ResourceFile",
    "ResourceLink",
    "ResourceRelation",
    "ResourceVersion",
    "Category",
    "RunPlatform",
    "Section",
    "Tag",
    "OutboxEvent",
    "WebhookAttempt",
    "WebhookDelivery",
    "WebhookSubscription",
    "UserBinding",
    "AuthCode",
    "PairingCode",
    "SsoTicket",
    "CarouselPlacement",
    "ProviderAccount",
    "ProviderCollect",
    "Wallet",
    "WalletLedger",
    "IdempotencyKey",
    "AdminAudit",
    "ConsoleApp",
    "SiteRole",
    "CommunityPost",
    "Answer",
    "Moment",
    "Follow",
    "Reaction",
    "CommunityProfile",
    "Notification",
    "PrivateMessage",
    "UserBlock",
    "LobbyPost",
    "LobbyResource",
    "LobbyBlob",
    "Entitlement",
    "Feedback",
    "FailureReporter",
    "StartupCommandReport",
    "InstallSigningKey",
    "ResourceDraft",
    "ReviewDecision",
    "DraftFile",
    "CatalogGeneration",
]
