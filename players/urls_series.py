"""URLs of the series pages (included by players/urls.py, namespace players:)."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
