from django.contrib import admin

from .models import ExportJob


@admin.register(ExportJob)
class ExportJobAdmin(admin.ModelAdmin):
    list_display = ("tournament", "kind", "format", "status", "progress", "created_at", "finished_at")
    list_filter = ("status", "kind")
