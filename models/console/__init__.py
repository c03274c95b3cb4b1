"""The developer console and admin pages: app ownership, site roles, the admin audit trail."""
