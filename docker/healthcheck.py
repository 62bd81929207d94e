"""Container healthcheck: GET /api/v1/health must answer 2xx (no curl in slim images)."""

import os
import sys
import urllib.request

url = f"http://127.0.0.1:{os.environ.get('PORT', '8000')}/api/v1/health"
try:
    with urllib.request.urlopen(url, timeout=4) as response:  # noqa: S310 - fixed loopback URL
        sys.exit(0 if 200 <= response.status < 300 else 1)
except Exception as exc:  # any failure means unhealthy
    print(f"unhealthy: {exc}", file=sys.stderr)
    sys.exit(1)
