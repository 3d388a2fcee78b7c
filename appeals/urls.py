"""Rulings, appeals and corrections: the director's and committee's pages, and the players' page."""

from django.urls import path

from appeals import views

app_name = "appeals"
urlpatterns = [
    path("<slug:slug>/", views.appeal_list, name="list"),
    path("<slug:slug>/new/", views.appeal_new, name="appeal-new"),
    path("<slug:slug>/a/<int:number>/", views.appeal_detail, name="appeal"),
    path("<slug:slug>/a/<int:number>/form/", views.appeal_form, name="appeal-form"),
    path("<slug:slug>/a/<int:number>/<slug:action>/", views.appeal_action, name="appeal-action"),
    path("<slug:slug>/rulings/new/", views.ruling_new, name="ruling-new"),
    path("<slug:slug>/rulings/<int:pk>/", views.ruling_detail, name="ruling"),
    path("<slug:slug>/corrections/new/", views.correction_new, name="correction-new"),
    path("<slug:slug>/corrections/<int:pk>/", views.correction_detail, name="correction"),
    path("<slug:slug>/audit/", views.audit_trail, name="audit"),
    path("<slug:slug>/settings/", views.appeal_settings, name="settings"),
    path("<slug:slug>/player/", views.player_home, name="player"),
    path("<slug:slug>/player/appeals/<int:number>/", views.player_appeal, name="player-appeal"),
    path("<slug:slug>/player/logout/", views.player_logout, name="player-logout"),
]
