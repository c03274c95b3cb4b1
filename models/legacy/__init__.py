"""The v1 (legacy) reads: post and resource queries, server posts and tags in the v1 shapes, over
the catalogue, the community posts and the search backends."""
