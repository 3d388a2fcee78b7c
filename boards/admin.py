from django.contrib import admin

from .models import Board, BoardSet


@admin.register(Board)
class BoardAdmin(admin.ModelAdmin):
    list_display = ("session", "number", "set_number", "dealer", "has_layout", "fouled")
    list_filter = ("session__tournament",)


@admin.register(BoardSet)
class BoardSetAdmin(admin.ModelAdmin):
    list_display = ("session", "number")
    list_filter = ("session__tournament",)
