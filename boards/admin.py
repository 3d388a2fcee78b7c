from django.contrib import admin

from .models import Board


@admin.register(Board)
class BoardAdmin(admin.ModelAdmin):
    list_display = ("session", "number", "set_number", "dealer", "has_layout")
    list_filter = ("session__tournament",)
