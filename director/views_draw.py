"""The random draw of the initial seating (seed 004, general provisions): the director draws the participants'
starting numbers with a recorded seed; the page shows the last draw and checks that its seed repeats it."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from duplicate.seating import draw_initial_seating, last_draw
from preferans.movements.draw import SEED_LIMIT
from tournaments.errors import UserError
from tournaments.models import Form, Tournament
from ui.director_pages import directs, nav


class DrawForm(forms.Form):
    seed = forms.IntegerField(
        label=gettext_lazy("Seed"),
        required=False,
        min_value=0,
        max_value=SEED_LIMIT - 1,
        help_text=gettext_lazy(
            "Empty: a random seed, recorded with the draw. The same seed repeats the same draw (to check it, or to "
            "redo a draw announced in advance)."
        ),
    )


@directs
def draw(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = DrawForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            done = draw_initial_seating(
                tournament=tournament, user=request.user, now=timezone.now(), seed=form.cleaned_data["seed"]
            )
        except UserError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Starting numbers drawn (seed %(seed)s).") % {"seed": done.seed})
            return redirect("director:draw", slug=tournament.slug)
    context = nav(tournament, active="participants") | {
        "form": form,
        "last": last_draw(tournament),
        "duplicate": tournament.form == Form.DUPLICATE,
        "count": tournament.participants.count(),
    }
    return render(request, "director/draw.html", context)
