"""The core layer: what models/ may import (errors, display, crypto, sanitize, webhook signing,
storage, signing). It imports nothing from the app shell above it (factory, gateway, edge, CLI,
site, seed, web), which tests/unit/test_layers.py checks."""
