"""URLs of the public pages of pulka events (mounted by pulkas.urls)."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
