"""SQLAlchemy 2.0 typed models and the domain functions that read and change them."""

from models.authoring.tables import DraftFile, ResourceDraft, ReviewDecision
from models.base import Base
from models.bindings import UserBinding
from models.catalog import ResourcePost, ServerPost
from models.community.tables import (
    Answer,
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
from models.idempotency import IdempotencyKey
from models.identity import Application, ProxyToken, User
from models.oauth import AuthCode, PairingCode, SsoTicket
from models.providers import CarouselPlacement, ProviderAccount, ProviderCollect
from models.resource_parts import (
    Comment,
    DailyStat,
    Rating,
    ResourceAuthor,
    ResourceFile,
    ResourceLink,
    ResourceRelation,
    ResourceVersion,
)
from models.taxonomy import Category, RunPlatform, Section, Tag
from models.wallets import Wallet, WalletLedger
from models.webhooks import OutboxEvent, WebhookAttempt, WebhookDelivery, WebhookSubscription

__all__ = [
    "Base", "Application", "ProxyToken", "User", "ResourcePost", "ServerPost", "Comment",
    "DailyStat", "Rating", "ResourceAuthor", "ResourceFile", "ResourceLink", "ResourceRelation",
    "ResourceVersion", "Category", "RunPlatform", "Section", "Tag",
    "OutboxEvent", "WebhookAttempt", "WebhookDelivery", "WebhookSubscription",
    "UserBinding", "AuthCode", "PairingCode", "SsoTicket", "CarouselPlacement", "ProviderAccount",
    "ProviderCollect", "Wallet", "WalletLedger", "IdempotencyKey", "AdminAudit", "ConsoleApp",
    "SiteRole",
    "CommunityPost", "Answer", "Moment", "Follow", "Reaction", "CommunityProfile",
    "Notification", "PrivateMessage", "UserBlock", "ResourceDraft", "ReviewDecision", "DraftFile",
]
