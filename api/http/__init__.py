"""The HTTP API and the PWA host: `create_app()` is the application factory."""
from api.http.app import create_app

__all__ = ["create_app"]
