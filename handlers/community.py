"""Community content, interactions, notifications, search and user pages."""
