"""Resource drafts, publishing and editing on behalf of a proxy user."""
