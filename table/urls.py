"""Players at the table, either form: a duplicate table's entry page (the table card's QR code opens it), its
live preview and QR code; a pulka table's sheet, its live preview and its PDF; a participant's own link (the QR
code on his PIN slip), which opens his table of the moment."""

from django.urls import path

from . import lookup, views, views_personal, views_pulka

app_name = "table"
urlpatterns = [
    path("table/", lookup.lookup, name="lookup"),
    path("table/<str:code>/", views.entry, name="entry"),
    path("table/<str:code>/preview/", views.preview, name="preview"),
    path("table/<str:code>/qr.svg", views.qr, name="qr"),
    path("pulka/<str:code>/", views_pulka.sheet_page, name="pulka"),
    path("pulka/<str:code>/preview/", views_pulka.preview, name="pulka_preview"),
    path("pulka/<str:code>/sheet.pdf", views_pulka.sheet_pdf, name="pulka_pdf"),
    path("p/<str:token>/", views_personal.personal, name="personal"),
]
