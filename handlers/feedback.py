"""Consumer reports: download failures, usefulness votes, resolved feedback."""
