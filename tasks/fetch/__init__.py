"""Raw-data fetch: source registry, mirror/upstream resolution, sha256 verification."""
