"""URLs of the register pages (included by players/urls.py, namespace players:)."""

from django.urls import URLPattern, path

from players.views import links, register

urlpatterns: list[URLPattern] = [
    path("register/", register.register_list, name="register"),
    path("register/new/", register.person_edit, name="register_new"),
    path("register/<int:pk>/", register.person_edit, name="register_person"),
    path("register/links/", links.proposed_links, name="register_links"),
    path("register/merge/", register.merge, name="register_merge"),
    path("register/import/", register.import_file, name="register_import"),
    path("register/export.<str:fmt>", register.export_file, name="register_export"),
    path("event/<slug:slug>/", register.event_links, name="event_links"),
]
