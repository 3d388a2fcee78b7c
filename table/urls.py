"""Players at the table: the entry page a table card's QR code opens, its live preview and the QR code."""

from django.urls import path

from . import views

app_name = "table"
urlpatterns = [
    path("", views.lookup, name="lookup"),
    path("<str:code>/", views.entry, name="entry"),
    path("<str:code>/preview/", views.preview, name="preview"),
    path("<str:code>/qr.svg", views.qr, name="qr"),
]
