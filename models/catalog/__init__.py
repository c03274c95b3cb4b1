"""Catalogue domain: resource posts, server posts, taxonomy, their reads and their life cycle.

tables.py mapped classes, records.py VO builders, service.py reads of a resource post. The
catalogue is the biggest domain, so a few reads and changes with their own audience live beside:
queries.py (the "listed" rule, paging, aggregate cache: shared with search and files),
taxonomy.py (sections, run platforms, category tree), stats.py (counters), lifecycle.py (changes
that raise webhook events) and legacy.py (the v1 free-form objects).
"""
