"""Delivery domain: entitlements, download links and counting, install info, consumer reports."""
