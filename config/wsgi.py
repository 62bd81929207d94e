import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

from config import gc_policy  # noqa: E402  (after the app is loaded: freeze what it loaded)

gc_policy.install()
