"""SQLAlchemy 2.0 typed models and the domain functions that read and change them."""

from models.base import Base
from models.identity import Application, ProxyToken, User

__all__ = ["Base", "Application", "ProxyToken", "User"]
