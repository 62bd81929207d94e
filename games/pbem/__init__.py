"""Play-by-email delivery channels (email, signed webhooks) and the per-user
notice stream. The services that decide *what* to send live in
games/services/{deadlines,notify,pause,press}.py."""
