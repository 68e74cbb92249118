"""CORS for the read-only API: any site may GET it (a club's own website embeds the results).

Only `/api/` and the `standings.json` addresses, and only safe methods: a preflight
(OPTIONS) is answered here, and the answer allows no credentials, so a page on another site
reads exactly what the public sees.
"""

from django.http import HttpResponse

ALLOWED_METHODS = "GET, HEAD, OPTIONS"
ALLOWED_HEADERS = "If-None-Match, If-Modified-Since"
EXPOSED_HEADERS = "ETag, Last-Modified"


def is_api_path(path: str) -> bool:
    return path.startswith("/api/") or path.endswith("/standings.json")


class ApiCorsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not is_api_path(request.path):
            return self.get_response(request)
        if request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers:
            response = HttpResponse(status=204)
            response["Access-Control-Allow-Methods"] = ALLOWED_METHODS
            response["Access-Control-Allow-Headers"] = ALLOWED_HEADERS
            response["Access-Control-Max-Age"] = "86400"
        else:
            response = self.get_response(request)
        if request.method in ("GET", "HEAD", "OPTIONS"):
            response["Access-Control-Allow-Origin"] = "*"
            response["Access-Control-Expose-Headers"] = EXPOSED_HEADERS
        return response
