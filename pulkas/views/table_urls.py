"""URLs of the table pages of pulka events (mounted by pulkas.urls at /pulka/): the players' sheet by table code."""

from django.urls import path

from pulkas.views import table

urlpatterns = [
    path("<str:code>/", table.sheet_page, name="table"),
    path("<str:code>/preview/", table.preview, name="table_preview"),
    path("<str:code>/sheet.pdf", table.sheet_pdf, name="table_pdf"),
]
