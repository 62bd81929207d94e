"""The ASGI application (gunicorn + uvicorn workers, `make run`, compose).

`/health` is answered on the event loop from checks a thread repeats
(api.asgi_health); live streams (SSE) go to api.live.asgi, which serves them
from the event loop without a thread each; every other request goes through Django's
middleware and views in a fixed pool of threads (api.asgi_sync)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_asgi_application()

from api import asgi_health, asgi_sync  # noqa: E402  (needs Django set up)
from api.live import asgi as live_streams  # noqa: E402
from config import gc_policy  # noqa: E402

gc_policy.install()


async def application(scope, receive, send) -> None:
    if scope["type"] == "lifespan":  # nothing to set up; say so instead of an error in the log
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    if asgi_health.handles(scope):
        await asgi_health.serve(django_application, scope, receive, send)
    elif live_streams.is_stream(scope):
        await live_streams.serve(django_application, scope, receive, send)
    elif scope["type"] == "http":
        await asgi_sync.serve(django_application, scope, receive, send)
    else:
        await django_application(scope, receive, send)
