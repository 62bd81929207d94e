"""Live streams (Server-Sent Events) of games and of a user's notices.

`asgi` serves stream requests on the event loop (config/asgi.py routes them
here); `sse` is the views' side (the response, a game's `EventFetch`); `hub`
is the process's one listener and the stream pool; `fanout` feeds a game's
streams in a process from one read; `writer` writes a batch to the ASGI
server without waking each stream's task; `slots` caps open streams per
account. docs/architecture.md ("Serving") tells why each piece exists."""
