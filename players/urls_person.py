"""URLs of the person pages (included by players/urls.py, namespace players:)."""

from django.urls import URLPattern, path

from players.views import person

urlpatterns: list[URLPattern] = [
    path("<int:pk>/", person.person_page, name="person"),
]
