"""URLs of the register pages (included by players/urls.py, namespace players:)."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
