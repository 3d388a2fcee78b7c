"""URL patterns (filled in by the feature that owns this package)."""

from django.urls import path  # noqa: F401

app_name = "api"
urlpatterns: list = []
