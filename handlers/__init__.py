"""Connexion operation handlers: one module per contract tag (see x-handler)."""
