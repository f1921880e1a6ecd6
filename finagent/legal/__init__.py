"""Legal references: parsing Russian citations and resolving them against ingested codes."""
