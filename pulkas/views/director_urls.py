"""URLs of the director pages of pulka events (mounted by pulkas.urls)."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
