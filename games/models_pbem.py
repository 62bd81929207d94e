"""Play-by-email tables: deadlines, notifications, webhook deliveries, pause votes."""
